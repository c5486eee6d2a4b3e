"""A stream-json run given ``--json-schema`` answers with a ``StructuredOutput`` call:
its result record holds the answer as ``structured_output``, and its ``result`` may be
empty. No assistant record holds that answer as words, so the response is unknown (a
check on it is an ERROR), never empty: ``not response contains`` must not pass on an
answer that holds the words."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: not response contains "secret"\n'
SESSION = "s-17"
ANSWER = {"answer": "the secret is 42"}
RECORDS = [
    {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["StructuredOutput"]},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m1", "role": "assistant",
                 "content": [{"type": "tool_use", "id": "t1", "name": "StructuredOutput", "input": ANSWER}]}},
    {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                               "content": "Structured output provided successfully"}]}}]


def _graded(tmp_path: Path, result: dict) -> tuple[list[str], list[str]]:
    record = {"type": "result", "subtype": "success", "is_error": False, "session_id": SESSION, **result}
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS + [record]), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_structured_answer_with_an_empty_result_leaves_the_response_unknown(tmp_path):
    outcomes, problems = _graded(tmp_path, {"result": "", "structured_output": ANSWER})
    assert outcomes == ["error"]
    assert any("unread-text" in problem and "structured_output" in problem for problem in problems)


def test_a_run_with_no_answer_at_all_keeps_no_reply(tmp_path):
    outcomes, problems = _graded(tmp_path, {"result": ""})
    assert outcomes == ["pass"]
    assert not any("unread-text" in problem for problem in problems)
