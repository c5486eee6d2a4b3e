"""A PreToolUse hook that answers with ``updatedInput`` and blocks its call in the same
answer (exit code 2, ``permissionDecision`` "deny", ``decision`` "block", ``continue``
false; a PermissionRequest hook's ``decision.behavior`` "deny") did not let the call run,
with that input or any: referee made the call's args unsure (``input-changed``), so a
check on them was an ERROR where the tool_use the agent made could be read. A blocked
answer changes no input; one that lets the call run still does."""

from __future__ import annotations

from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Call
from hook_stream import call_session, call_stream, hook_response, hook_success

RULES = 'eval 1\nexpect 1: no calls to "Bash" where .args.command contains "rm"\n'
NEW = {"command": "rm -rf x"}
CALL = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}
BLOCKED = {"type": "tool_result", "tool_use_id": "t1", "content": "blocked", "is_error": True}


def _pre(**answer: object) -> dict:
    specific = {"hookEventName": "PreToolUse", "updatedInput": NEW}
    specific.update(answer.pop("specific", {}))
    return {"hookSpecificOutput": specific, **answer}


def _hook(answer: dict, exit_code: int = 0, event: str = "PreToolUse") -> dict:
    return hook_response(answer, event, "Bash", exit_code)


def _stream(tmp_path: Path, hook: dict) -> Path:
    return call_stream(tmp_path, [CALL], hook, [BLOCKED])


def _session(tmp_path: Path, answer: dict, exit_code: int = 0) -> Path:
    hook = hook_success(answer, "PreToolUse", "Bash", exit_code=exit_code)
    return call_session(tmp_path, "list", [CALL], [BLOCKED], hook)


def _read(source: Path) -> tuple[str, list[str], list[bool]]:
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    calls = [e for e in conversations("claude-code", [source])[0].entries if isinstance(e, Call)]
    return (grading["expectations"][0]["outcome"], [p for p in grading["problems"] if "input-changed" in p],
            ["args" in c.unread for c in calls])


BLOCKING = {
    "permission denied": _pre(specific={"permissionDecision": "deny", "permissionDecisionReason": "no"}),
    "decision block": _pre(decision="block", reason="no"),
    "continue false": _pre(**{"continue": False, "stopReason": "stop"}),
}


def test_a_stream_s_hook_that_blocked_its_call_changed_no_input(tmp_path: Path):
    for name, answer in BLOCKING.items():
        assert _read(_stream(tmp_path, _hook(answer))) == ("pass", [], [False]), name
    assert _read(_stream(tmp_path, _hook(_pre(), exit_code=2))) == ("pass", [], [False])
    denied = {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                     "decision": {"behavior": "deny", "message": "no", "updatedInput": NEW}}}
    assert _read(_stream(tmp_path, _hook(denied, event="PermissionRequest"))) == ("pass", [], [False])


def test_a_session_s_hook_that_blocked_its_call_changed_no_input(tmp_path: Path):
    for name, answer in BLOCKING.items():
        assert _read(_session(tmp_path, answer)) == ("pass", [], [False]), name
    assert _read(_session(tmp_path, _pre(), exit_code=2)) == ("pass", [], [False])


def test_a_hook_that_let_its_call_run_still_changed_its_input(tmp_path: Path):
    for answer in (_pre(), _pre(specific={"permissionDecision": "allow"}), _pre(specific={"permissionDecision": "ask"}),
                   _pre(decision="approve"), _pre(**{"continue": True})):
        outcome, changed, unsure = _read(_stream(tmp_path, _hook(answer)))
        assert (outcome, len(changed), unsure) == ("error", 1, [True]), answer
        outcome, changed, unsure = _read(_session(tmp_path, answer))
        assert (outcome, len(changed), unsure) == ("error", 1, [True]), answer
