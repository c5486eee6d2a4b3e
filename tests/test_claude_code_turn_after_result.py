"""A stream-json run prints a ``result`` record at the end of each turn (one per user
message when its input is streamed too), and a few records that are no messages may
follow the last (``prompt_suggestion``). A message of the main agent after the last
result opens a turn that has none: that turn was cut short, so its last words read are
no finished reply and the response is unknown (``no-result``), never those words."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: response contains "deployed"\nexpect 2: not response contains "failed"\n'
SESSION = "s-4"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}


def _user(text: str) -> dict:
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None,
            "session_id": SESSION}


def _said(message_id: str, text: str) -> dict:
    return {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
            "message": {"id": message_id, "role": "assistant", "stop_reason": None,
                        "content": [{"type": "text", "text": text}]}}


def _result(text: str) -> dict:
    return {"type": "result", "subtype": "success", "is_error": False, "result": text, "session_id": SESSION}


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_turn_after_the_last_result_has_no_known_response(tmp_path):
    records = [INIT, _user("Deploy the fix"), _said("m1", "Checking the build."), _result("Checking the build."),
               _user("Now deploy it"), _said("m2", "I have deployed the fix")]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["error", "error"]
    assert any("no-result" in p and "stream.jsonl:5" in p for p in problems)


def test_each_turn_ending_with_its_result_is_read_as_before(tmp_path):
    records = [INIT, _user("Deploy the fix"), _said("m1", "Checking the build."), _result("Checking the build."),
               _user("Now deploy it"), _said("m2", "I have deployed the fix"), _result("I have deployed the fix"),
               {"type": "prompt_suggestion", "suggestion": "Run the tests", "session_id": SESSION}]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["pass", "pass"]
    assert not any("no-result" in p or "run-error" in p for p in problems)
