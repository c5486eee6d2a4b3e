"""A hook run in the background (``async``) that ends later is recorded by Claude Code
as an ``async_hook_response`` attachment, and the agent is given its answer's
``systemMessage`` and ``hookSpecificOutput.additionalContext``, each as a message of its
own. That attachment was skipped, and ``no harness where .text contains "deploy"``
passed on a session whose background hook told the agent to deploy. Now that text is
harness text (``hook``) at its line; an empty answer gives nothing, and one in a shape
not read leaves the harness text unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

RULES = 'eval 1\nexpect 1: no harness where .text contains "deploy"\nexpect 2: response contains "Fixed"\n'
PROMPT = {"type": "user", "uuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "fix the bug"}}
REPLY = {"type": "assistant", "uuid": "a1", "sessionId": "s",
         "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                     "content": [{"type": "text", "text": "Fixed."}]}}


def _async(response) -> dict:
    return {"type": "attachment", "uuid": "h1", "sessionId": "s",
            "attachment": {"type": "async_hook_response", "processId": "p1", "hookName": "PostToolUse:Edit",
                           "hookEvent": "PostToolUse", "toolName": "Edit", "response": response,
                           "stdout": json.dumps(response), "stderr": "", "exitCode": 0}}


def _write(tmp_path: Path, response) -> Path:
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in [PROMPT, _async(response), REPLY]), encoding="utf-8")
    return source


def _graded(tmp_path: Path, response) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, _write(tmp_path, response), as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


GIVEN = {
    "additional-context": ({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "deploy now"}},
                           "deploy now"),
    "system-message": ({"systemMessage": "deploy now"}, "deploy now"),
    "both": ({"systemMessage": "lint ran", "hookSpecificOutput": {"additionalContext": "deploy now"}},
             "lint ran\ndeploy now"),
}


@pytest.mark.parametrize("response, text", GIVEN.values(), ids=GIVEN.keys())
def test_what_a_background_hook_answered_is_harness_text_at_its_line(tmp_path: Path, response: dict, text: str):
    conversation = conversations("claude-code", [_write(tmp_path, response)])[0]
    harness = [(e.kind, e.text, e.origin.line) for e in conversation.entries if isinstance(e, Text) and e.kind != "agent"]
    assert harness == [("eval prompt", "fix the bug", 1), ("hook", text, 2)]
    assert _graded(tmp_path, response) == (["fail", "pass"], [])


@pytest.mark.parametrize("response", [{}, {"systemMessage": ""}, {"continue": True, "suppressOutput": True}])
def test_an_empty_answer_gives_nothing(tmp_path: Path, response: dict):
    assert _graded(tmp_path, response) == (["pass", "pass"], [])


@pytest.mark.parametrize("response", ["deploy now", {"systemMessage": ["deploy now"]},
                                      {"hookSpecificOutput": {"additionalContext": {"text": "deploy"}}}])
def test_an_answer_in_a_shape_not_read_leaves_the_harness_text_unknown(tmp_path: Path, response):
    outcomes, problems = _graded(tmp_path, response)
    assert outcomes == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "session.jsonl:2" in p for p in problems)
