"""An ``attachment`` record of a Claude Code session whose attachment is no object, or
names no type, cannot be told apart from one whose text the agent was given (a hook's
context, a notification): it was skipped, so ``no harness where .text contains
"deploy"`` passed over its words. Now words there leave the harness text unknown
(``harness-may-be-missing``); one that holds no words is skipped as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no harness where .text contains "deploy"\nexpect 2: response contains "Fixed"\n'
PROMPT = {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "S",
          "message": {"role": "user", "content": "fix the bug"}}
REPLY = {"type": "assistant", "uuid": "a1", "parentUuid": "h1", "sessionId": "S",
         "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                     "content": [{"type": "text", "text": "Fixed."}]}}


def _graded(tmp_path: Path, attachment) -> tuple[list[str], list[str]]:
    record = {"type": "attachment", "uuid": "h1", "parentUuid": "u1", "sessionId": "S", "attachment": attachment}
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in [PROMPT, record, REPLY]), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


@pytest.mark.parametrize("attachment", ["deploy now", ["deploy now"], {"type": 7, "content": ["deploy now"]},
                                        {"content": ["deploy now"]}], ids=["text", "list", "type-no-text", "no-type"])
def test_words_in_an_attachment_of_no_type_leave_the_harness_text_unknown(tmp_path: Path, attachment):
    outcomes, problems = _graded(tmp_path, attachment)
    assert outcomes == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "session.jsonl:2" in p for p in problems)


@pytest.mark.parametrize("attachment", [None, {}, {"content": []}], ids=["null", "empty", "no-words"])
def test_an_attachment_of_no_type_and_no_words_is_skipped(tmp_path: Path, attachment):
    assert _graded(tmp_path, attachment) == (["pass", "pass"], [])
