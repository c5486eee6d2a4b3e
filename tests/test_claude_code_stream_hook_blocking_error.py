"""A hook that blocks (exit code 2) has Claude Code ignore what it printed and give the
agent what it wrote to stderr instead: the reason a tool call was refused (PreToolUse),
feedback on a tool that ran or failed (PostToolUse, PostToolUseFailure), why it may not
stop yet (Stop, SubagentStop). A stream's ``hook_response`` record of such a hook was
skipped as a failed one, and ``no harness where .text contains "deploy"`` passed on a
stream whose PostToolUse hook told the agent "deploy". Now that stderr is harness text
(``hook``) at its line; a hook of an event that shows it to the user only (SessionStart,
UserPromptSubmit, ...) gave nothing, and one of an event of neither kind, or of none
named, leaves the harness text unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text
from hook_stream import graded, write_stream


def _blocked(event: str | None, stderr: str = "deploy before you stop\n", exit_code: int = 2) -> dict:
    response = {"type": "system", "subtype": "hook_response", "hook_id": "h", "hook_name": f"{event}:Bash",
                "hook_event": event, "output": stderr, "stdout": "", "stderr": stderr, "exit_code": exit_code,
                "outcome": "error", "uuid": "x1", "session_id": "s"}
    if event is None:
        del response["hook_event"], response["hook_name"]
    return response


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop"])
def test_what_a_blocking_hook_wrote_to_stderr_is_harness_text_at_its_line(tmp_path: Path, event: str):
    conversation = conversations("claude-code", [write_stream(tmp_path, _blocked(event))])[0]
    harness = [(e.kind, e.text, e.origin.line) for e in conversation.entries if isinstance(e, Text) and e.kind != "agent"]
    assert harness == [("eval prompt", "fix it", 2), ("hook", "deploy before you stop\n", 3)]
    assert graded(tmp_path, _blocked(event)) == (["fail", "pass"], [])


NOT_GIVEN = {
    "session-start": _blocked("SessionStart"),
    "prompt-submit": _blocked("UserPromptSubmit"),
    "notification": _blocked("Notification"),
    "empty-stderr": _blocked("PostToolUse", stderr=""),
    "other-failure": _blocked("PostToolUse", exit_code=1),
}


@pytest.mark.parametrize("response", NOT_GIVEN.values(), ids=NOT_GIVEN.keys())
def test_a_blocking_error_shown_to_the_user_only_is_skipped(tmp_path: Path, response: dict):
    assert graded(tmp_path, response) == (["pass", "pass"], [])


UNKNOWN = {
    "event-not-placed": _blocked("TeammateIdle"),
    "no-event-named": _blocked(None),
    "output-with-no-stderr": {k: v for k, v in _blocked("PostToolUse").items() if k != "stderr"},
    "stderr-no-text": {**_blocked("Stop"), "stderr": ["deploy"]},
}


@pytest.mark.parametrize("response", UNKNOWN.values(), ids=UNKNOWN.keys())
def test_a_blocking_error_that_may_have_been_given_leaves_the_harness_text_unknown(tmp_path: Path, response: dict):
    outcomes, problems = graded(tmp_path, response)
    assert outcomes == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "stream.jsonl:3" in p for p in problems)


def test_a_hook_whose_exit_code_is_not_told_may_have_blocked(tmp_path: Path):
    """A hook that did not succeed, with no exit code (or one that is no number), may have
    blocked: its stderr, which a blocking hook of its event gives, leaves the harness text
    unknown; one of an event that shows it the user only, or none, gives nothing."""
    for response in ({k: v for k, v in _blocked("PostToolUse").items() if k != "exit_code"},
                     {**_blocked("Stop"), "exit_code": "2"}):
        outcomes, problems = graded(tmp_path, response)
        assert outcomes == ["error", "pass"]
        assert any("harness-may-be-missing" in p and "stream.jsonl:3" in p for p in problems)
    shown = {k: v for k, v in _blocked("SessionStart").items() if k != "exit_code"}
    empty = {k: v for k, v in _blocked("PostToolUse", stderr="").items() if k != "exit_code"}
    succeeded = {**{k: v for k, v in _blocked("PostToolUse").items() if k != "exit_code"}, "outcome": "success"}
    for response in (shown, empty, succeeded):
        assert graded(tmp_path, response) == (["pass", "pass"], [])
