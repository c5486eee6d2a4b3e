"""A stream-json run that finished (its result says it succeeded) and whose result
record names its last words (``result``) has a reply: when no assistant record read
holds one (the last message read made a call, and none follows), those words were
not read, so the response is unknown (a check on it is an ERROR), never empty. A
result naming no words leaves a run with no reply as it was."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: not response contains "rm"\n'
SESSION = "s-11"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}
AT_WORK = [
    INIT,
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m1", "role": "assistant",
                 "content": [{"type": "text", "text": "Cleaning."},
                             {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]}},
    {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "build"}]}}]


def _result(text: str) -> dict:
    return {"type": "result", "subtype": "success", "is_error": False, "result": text, "session_id": SESSION}


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_last_words_the_result_names_and_no_record_holds_leave_the_response_unknown(tmp_path):
    outcomes, problems = _graded(tmp_path, AT_WORK + [_result("I ran rm -rf build")])
    assert outcomes == ["error"]
    assert any("unread-text" in p and "stream.jsonl:4" in p for p in problems)


def test_a_result_naming_no_words_leaves_no_reply(tmp_path):
    outcomes, problems = _graded(tmp_path, AT_WORK + [_result("")])
    assert outcomes == ["pass"]
    assert not any("unread-text" in p for p in problems)
