"""A UserPromptSubmit hook that blocks (exit code 2) makes Claude Code erase the prompt and
show the hook's stderr to the user only; a session keeps it as a ``hook_blocking_error``
attachment. referee read it as harness text, so ``no harness where .text contains
"deploy"`` failed on words the agent never saw. Now it is skipped, as a stream's
``hook_response`` of such a hook is (so is a blocking error of another event whose
stderr Claude Code shows the user only, as SessionStart's); a PreToolUse hook's is still read."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

RULES = 'eval 1\nexpect 1: no harness where .text contains "deploy"\nexpect 2: response contains "Fixed"\n'


def _record(kind: str, uuid: str, body: dict) -> dict:
    return {"type": kind, "uuid": uuid, "parentUuid": None if uuid == "u1" else "u1", "sessionId": "s",
            "isSidechain": False, "timestamp": "2026-06-07T05:00:00.000Z", **body}


def _blocking(event: str, error: object = "deploy is frozen") -> dict:
    return _record("attachment", "h1", {"attachment": {
        "type": "hook_blocking_error", "hookName": event, "hookEvent": event,
        "blockingError": {"blockingError": error, "command": "guard.sh"}}})


def _read(tmp_path: Path, hook: dict) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    records = [_record("user", "u1", {"message": {"role": "user", "content": "fix the bug"}}), hook,
               _record("assistant", "a1", {"message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                                                       "content": [{"type": "text", "text": "Fixed."}]}})]
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    texts = [(e.kind, e.text) for e in conversations("claude-code", [source])[0].entries
             if isinstance(e, Text) and e.kind != "agent"]
    return [e["outcome"] for e in grading["expectations"]], grading["problems"], texts


def test_a_prompt_hook_s_blocking_error_is_shown_the_user_only(tmp_path: Path):
    for hook in (_blocking("UserPromptSubmit"), _blocking("SessionStart"),
                 _blocking("UserPromptSubmit", {"text": "deploy"})):
        assert _read(tmp_path, hook) == (["pass", "pass"], [], [("eval prompt", "fix the bug")])


def test_a_tool_hook_s_blocking_error_is_still_given_the_agent(tmp_path: Path):
    outcomes, _, texts = _read(tmp_path, _blocking("PreToolUse"))
    assert outcomes == ["fail", "pass"] and ("hook", "deploy is frozen") in texts
