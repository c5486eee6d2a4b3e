"""Claude Code's stream-json reports each SessionStart hook it ran as ``system`` records
(``hook_started``, then ``hook_response`` with what the hook printed): a SessionStart
or UserPromptSubmit hook's output is given to the agent (as it printed it, or, printed
as JSON, its ``hookSpecificOutput.additionalContext``), and so is any hook's
``additionalContext``. Those records hold no ``content``, so they were skipped, and
``no harness where .text contains "deploy"`` passed on a stream whose SessionStart hook
told the agent to deploy. Now that output is harness text (``hook``) at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

RULES = 'eval 1\nexpect 1: no harness where .text contains "deploy"\nexpect 2: response contains "Fixed"\n'
STARTED = {"type": "system", "subtype": "hook_started", "hook_id": "h", "hook_name": "SessionStart:startup",
           "hook_event": "SessionStart", "uuid": "x0", "session_id": "s"}
REST = [{"type": "system", "subtype": "init", "cwd": "/w", "session_id": "s", "tools": [], "model": "m"},
        {"type": "user", "message": {"role": "user", "content": "fix it"}, "session_id": "s"},
        {"type": "assistant", "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                                          "content": [{"type": "text", "text": "Fixed."}]}, "session_id": "s"},
        {"type": "result", "subtype": "success", "is_error": False, "result": "Fixed.", "session_id": "s"}]


def _response(stdout: str, event: str = "SessionStart", exit_code: int = 0) -> dict:
    return {"type": "system", "subtype": "hook_response", "hook_id": "h", "hook_name": f"{event}:startup",
            "hook_event": event, "output": stdout, "stdout": stdout, "stderr": "", "exit_code": exit_code,
            "outcome": "success" if exit_code == 0 else "error", "uuid": "x1", "session_id": "s"}


def _write(tmp_path: Path, response: dict) -> Path:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in [STARTED, response, *REST]), encoding="utf-8")
    return source


def _graded(tmp_path: Path, response: dict) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, _write(tmp_path, response), as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


CONTEXT = json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                             "additionalContext": "Always deploy after an edit"}})
GIVEN = {
    "plain-output": (_response("Always deploy after an edit\n"), "Always deploy after an edit\n"),
    "additional-context": (_response(CONTEXT + "\n"), "Always deploy after an edit"),
    "post-tool-use-context": (_response(CONTEXT.replace("SessionStart", "PostToolUse"), "PostToolUse"),
                              "Always deploy after an edit"),
}


@pytest.mark.parametrize("response, text", GIVEN.values(), ids=GIVEN.keys())
def test_a_hook_s_output_given_to_the_agent_is_harness_text_at_its_line(tmp_path: Path, response: dict, text: str):
    conversation = conversations("claude-code", [_write(tmp_path, response)])[0]
    harness = [(e.kind, e.text, e.origin.line) for e in conversation.entries if isinstance(e, Text) and e.kind != "agent"]
    assert harness == [("hook", text, 2), ("eval prompt", "fix it", 4)]
    assert _graded(tmp_path, response) == (["fail", "pass"], [])


NOT_GIVEN = {
    "empty": _response(""),
    "json-with-no-context": _response('{"continue": true}\n'),
    "other-event-plain-output": _response("deploy log\n", "PostToolUse"),
    "failed": _response("deploy failed\n", exit_code=1),
}


@pytest.mark.parametrize("response", NOT_GIVEN.values(), ids=NOT_GIVEN.keys())
def test_output_shown_to_the_user_only_is_skipped(tmp_path: Path, response: dict):
    assert _graded(tmp_path, response) == (["pass", "pass"], [])


def test_context_that_is_no_text_leaves_the_harness_text_unknown(tmp_path: Path):
    stdout = json.dumps({"hookSpecificOutput": {"additionalContext": ["deploy"]}})
    outcomes, problems = _graded(tmp_path, _response(stdout))
    assert outcomes == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "stream.jsonl:2" in p for p in problems)


def test_output_with_no_stdout_is_not_read_as_given(tmp_path: Path):
    """``output`` holds stdout and stderr as one: what of it the agent was given is unknown."""
    response = {k: v for k, v in _response("Always deploy after an edit\n").items() if k != "stdout"}
    outcomes, problems = _graded(tmp_path, response)
    assert outcomes == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "stream.jsonl:2" in p for p in problems)
    other = {k: v for k, v in _response("deploy log\n", "PostToolUse").items() if k != "stdout"}
    assert _graded(tmp_path, other) == (["pass", "pass"], [])
