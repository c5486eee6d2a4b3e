"""A stream-json run's result record names its last words (``result``): when they are
not among the words of the reply read (an assistant record lost, or one not printed
whole), the reply read is not the run's answer, so a check on the response is an ERROR,
never a pass on words the run did not end with. A result that holds the reply's words,
or a part of them (Claude Code names the last text block of a message split over
several lines), changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: not response contains "secret"\nexpect 2: response contains "Done"\n'
SESSION = "s-12"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}


def _text(text: str, message_id: str = "m1") -> dict:
    return {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
            "message": {"id": message_id, "role": "assistant", "content": [{"type": "text", "text": text}]}}


def _result(text: str) -> dict:
    return {"type": "result", "subtype": "success", "is_error": False, "result": text, "session_id": SESSION,
            "permission_denials": []}


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_result_naming_other_words_than_the_reply_leaves_the_response_unknown(tmp_path):
    outcomes, problems = _graded(tmp_path, [INIT, _text("Done."), _result("Done. The secret is 42.")])
    assert outcomes == ["error", "error"]
    assert any("unread-text" in problem and "result record" in problem for problem in problems)


def test_a_result_naming_the_reply_changes_nothing(tmp_path):
    outcomes, problems = _graded(tmp_path, [INIT, _text("Done,\nall of it."), _result("Done, all of it.")])
    assert outcomes == ["pass", "pass"]
    assert not any("unread-text" in problem for problem in problems)


def test_a_result_naming_the_last_part_of_a_split_reply_changes_nothing(tmp_path):
    records = [INIT, _text("First I looked."), _text("Done: all of it."), _result("Done: all of it.")]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["pass", "pass"]
    assert not any("unread-text" in problem for problem in problems)


def test_a_result_joining_the_text_blocks_of_the_reply_changes_nothing(tmp_path):
    message = _text("Done.")
    message["message"]["content"].append({"type": "text", "text": "All of it."})
    outcomes, problems = _graded(tmp_path, [INIT, message, _result("Done.All of it.")])
    assert outcomes == ["pass", "pass"]
    assert not any("unread-text" in problem for problem in problems)
