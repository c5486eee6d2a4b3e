"""A stream-json result record names how the run ended by its ``subtype`` as well as
its ``is_error`` flag, and Claude Code has written ``error_max_turns`` (and other
``error_...`` subtypes) with ``is_error: false``: such a run did not finish either (it
ran out of turns, broke off), so its last words read are no finished reply and the
response is unknown. Only a result that says ``success`` (or names no subtype) with
``is_error: false`` lets the last words be the reply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: response contains "deployed"\nexpect 2: not response contains "failed"\n'
SESSION = "s-3"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}
PROMPT = {"type": "user", "message": {"role": "user", "content": "Deploy the fix"}, "parent_tool_use_id": None,
          "session_id": SESSION}
SAID = {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
        "message": {"id": "m1", "role": "assistant", "stop_reason": None,
                    "content": [{"type": "text", "text": "I have deployed the fix."}]}}


def _graded(tmp_path: Path, result: dict) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    result = {"type": "result", "session_id": SESSION, "num_turns": 3, **result}
    source.write_text("".join(json.dumps(r) + "\n" for r in [INIT, PROMPT, SAID, result]), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


@pytest.mark.parametrize("subtype", ["error_max_turns", "error_during_execution", "error_max_budget_usd"])
def test_an_error_subtype_not_flagged_an_error_leaves_the_response_unknown(tmp_path, subtype):
    outcomes, problems = _graded(tmp_path, {"subtype": subtype, "is_error": False})
    assert outcomes == ["error", "error"]
    assert any("run-error" in p and subtype in p and "stream.jsonl:4" in p for p in problems)


@pytest.mark.parametrize("result", [{"subtype": "success", "is_error": False}, {"is_error": False}])
def test_a_successful_result_lets_the_last_words_be_the_reply(tmp_path, result):
    outcomes, problems = _graded(tmp_path, result)
    assert outcomes == ["pass", "pass"]
    assert not any("run-error" in p for p in problems)
