"""A PreToolUse hook may answer with ``hookSpecificOutput.updatedInput`` (a
PermissionRequest hook with ``decision.updatedInput``): Claude Code then runs the call
with that input, not the one the model's ``tool_use`` block shows. A stream reports
what the hook printed in a ``hook_response`` record (naming no call: it is tied to the
call still open of the tool its name gives, ``PreToolUse:Bash``). referee read the
call's args as the model's, so ``no calls to "Bash" where .args.command contains "rm"``
passed on a run whose hook made the call ``rm -rf x``. Now such a call's args are
unsure (a check on them is an ERROR), with an ``input-changed`` problem at the hook's
line that says what the hook gave; no call is made up from it."""

from __future__ import annotations

from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Call
from hook_stream import DONE, INIT, call_session, call_stream, hook_response, hook_success, write_jsonl

RULES = ('eval 1\nexpect 1: no calls to "Bash" where .args.command contains "rm"\n'
         'expect 2: response contains "Done"\nexpect 3: count(calls to "Bash") >= 1\n')
REWRITE = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                  "updatedInput": {"command": "rm -rf x"}}}


def _bash(call_id: str, command: str) -> dict:
    return {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}


def _hook(answer: object, event: str = "PreToolUse", tool: str = "Bash") -> dict:
    return hook_response(answer, event, tool)


def _stream(tmp_path: Path, hook: dict, calls: list[dict] | None = None) -> Path:
    calls = calls or [_bash("t1", "ls")]
    return call_stream(tmp_path, calls, hook, [_ok(c["id"]) for c in calls])


def _ok(call_id: str) -> dict:
    return {"type": "tool_result", "tool_use_id": call_id, "content": "ok"}


def _graded(source: Path) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def _unsure(source: Path) -> list[tuple[str | None, bool]]:
    entries = conversations("claude-code", [source])[0].entries
    return [(e.call_id, "args" in e.unread) for e in entries if isinstance(e, Call)]


def test_a_stream_s_pre_tool_use_hook_that_changed_the_input_makes_the_call_s_args_unsure(tmp_path: Path):
    source = _stream(tmp_path, _hook(REWRITE))
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]
    changed = [p for p in problems if "input-changed" in p]
    assert len(changed) == 1 and "stream.jsonl:4" in changed[0] and "PreToolUse:Bash" in changed[0]
    assert '{"command": "rm -rf x"}' in changed[0]
    assert _unsure(source) == [("t1", True)]  # the call the model made, kept: none made up from the hook


def test_a_permission_request_hook_s_changed_input_is_read_too(tmp_path: Path):
    answer = {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                     "decision": {"behavior": "allow", "updatedInput": {"command": "rm -rf x"}}}}
    outcomes, problems = _graded(_stream(tmp_path, _hook(answer, "PermissionRequest")))
    assert outcomes == ["error", "pass", "pass"]
    assert any("input-changed" in p and "stream.jsonl:4" in p for p in problems)


def test_a_hook_that_changed_no_input_changes_nothing(tmp_path: Path):
    allowed = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    permitted = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}
    for hook in (_hook(allowed), _hook("checked\n"), _hook(permitted, "PermissionRequest"),
                 _hook({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedInput": {"command": "rm"}}},
                       "PostToolUse")):
        source = _stream(tmp_path, hook)
        assert _graded(source) == (["pass", "pass", "pass"], [])
        assert _unsure(source) == [("t1", False)]


def test_a_stream_s_hook_answer_open_to_several_calls_makes_each_unsure(tmp_path: Path):
    calls = [_bash("t1", "ls"), _bash("t2", "pwd"), {"type": "tool_use", "id": "t3", "name": "Read",
                                                       "input": {"file_path": "/w/a"}}]
    source = _stream(tmp_path, _hook(REWRITE), calls)
    assert _unsure(source) == [("t1", True), ("t2", True), ("t3", False)]
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]
    assert sum("input-changed" in p for p in problems) == 2


def test_a_stream_s_hook_answer_no_open_call_can_take_makes_the_calls_incomplete(tmp_path: Path):
    source = _stream(tmp_path, _hook(REWRITE, tool="Write"))
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]  # the Bash calls read were made
    assert any("calls-may-be-missing" in p and "stream.jsonl:4" in p and "PreToolUse:Write" in p for p in problems)


# A session (Claude Code 2.x) keeps what a hook printed in a hook_success attachment
# (``stdout``), naming the call it ran for (``toolUseID``).
def _success(answer: object, call_id: str = "t1", event: str = "PreToolUse") -> dict:
    return hook_success(answer, event, "Bash", call_id)


def _session(tmp_path: Path, hook: dict, hook_first: bool = False) -> Path:
    return call_session(tmp_path, "list", [_bash("t1", "ls"), _bash("t2", "pwd")], [_ok("t1"), _ok("t2")], hook,
                        1 if hook_first else 2)


def test_a_session_s_hook_that_changed_the_input_makes_the_call_it_names_unsure(tmp_path: Path):
    for hook_first, line in ((False, 3), (True, 2)):  # the attachment after its call, or before it
        source = _session(tmp_path, _success(REWRITE), hook_first)
        assert _unsure(source) == [("t1", True), ("t2", False)]
        outcomes, problems = _graded(source)
        assert outcomes == ["error", "pass", "pass"]
        assert [p for p in problems if "input-changed" in p] == [
            f"session.jsonl:{line}: warning[input-changed]: the PreToolUse:Bash hook gave call 't1' ('Bash') another "
            'input, {"command": "rm -rf x"}: the call that ran is not the one the agent\'s tool_use shows, so a '
            "check on its args is an error"]


def test_a_session_s_hook_answer_for_a_call_not_held_makes_the_calls_incomplete(tmp_path: Path):
    outcomes, problems = _graded(_session(tmp_path, _success(REWRITE, call_id="t9")))
    assert outcomes == ["error", "pass", "pass"]  # the Bash calls read were made
    assert any("calls-may-be-missing" in p and "session.jsonl:3" in p for p in problems)


def test_a_session_s_hook_that_changed_no_input_changes_nothing(tmp_path: Path):
    allowed = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    source = _session(tmp_path, _success(allowed))
    assert _graded(source) == (["pass", "pass", "pass"], [])
    assert _unsure(source) == [("t1", False), ("t2", False)]


def test_a_hook_answer_in_a_shape_not_read_may_have_changed_the_input(tmp_path: Path):
    hook = {**_hook(REWRITE), "stdout": REWRITE, "output": REWRITE}  # no text: what the hook printed is not read
    source = _stream(tmp_path, hook)
    assert _unsure(source) == [("t1", True)]
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]
    assert any("input-changed" in p and "shape not read" in p and "stream.jsonl:4" in p for p in problems)


def test_a_stream_s_hook_answer_for_a_subagent_s_call_is_taken_by_that_call(tmp_path: Path):
    """A stream holds the subagent's messages beside the main agent's (``parent_tool_use_id``)
    and its hook answers among them: the answer is taken by the call open at its line,
    whichever agent made it (not the main agent's calls alone, which hold none of it)."""
    def sub(record: dict) -> dict:
        return {**record, "parent_tool_use_id": "task1"}
    task = {"type": "tool_use", "id": "task1", "name": "Task", "input": {"prompt": "list", "description": "d"}}
    records = [
        INIT, {"type": "user", "message": {"role": "user", "content": "go"}, "session_id": "s"},
        {"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [task]}, "session_id": "s"},
        sub({"type": "user", "message": {"role": "user", "content": "list"}, "session_id": "s"}),
        sub({"type": "assistant", "message": {"id": "m3", "role": "assistant", "content": [_bash("t1", "ls")]},
             "session_id": "s"}),
        _hook(REWRITE),
        sub({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}, "session_id": "s"}),
        sub({"type": "assistant", "message": {"id": "m4", "role": "assistant", "content": [
            {"type": "text", "text": "listed"}]}, "session_id": "s"}),
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "task1", "content": "listed"}]}, "session_id": "s"},
        {"type": "assistant", "message": DONE, "session_id": "s"},
        {"type": "result", "subtype": "success", "is_error": False, "result": "Done.", "session_id": "s"}]
    source = write_jsonl(tmp_path / "stream.jsonl", records)
    task_call = next(e for e in conversations("claude-code", [source])[0].entries if isinstance(e, Call))
    assert task_call.tool == "Task" and task_call.subagent is not None
    assert [(e.call_id, "args" in e.unread) for e in task_call.subagent.entries if isinstance(e, Call)] == [("t1", True)]
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]
    assert [p.split(": ", 1)[0] for p in problems] == ["stream.jsonl:6"]
    assert "input-changed" in problems[0] and "'t1'" in problems[0]
