"""Records stream-json prints beside the messages (``rate_limit_event``, a
``prompt_suggestion`` after the result) are no messages: skipped without a word, as a
session's snapshots are, and looked into for a call all the same."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: response contains "deployed"\n'
SESSION = "s-8"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}
SAID = {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
        "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "I have deployed it."}]}}
RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "I have deployed it.",
          "session_id": SESSION}


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_rate_limit_events_and_prompt_suggestions_are_skipped_without_a_word(tmp_path):
    limit = {"type": "rate_limit_event", "rate_limit_info": {"status": "allowed_warning"}, "session_id": SESSION}
    suggestion = {"type": "prompt_suggestion", "suggestion": "Run the tests", "session_id": SESSION}
    outcomes, problems = _graded(tmp_path, [INIT, limit, SAID, RESULT, suggestion])
    assert outcomes == ["pass", "pass"]
    assert not any("unknown-record" in p for p in problems)


def test_a_call_inside_one_is_not_taken_as_read(tmp_path):
    limit = {"type": "rate_limit_event", "session_id": SESSION,
             "held": {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "rm -rf /"}}}
    outcomes, problems = _graded(tmp_path, [INIT, limit, SAID, RESULT])
    assert outcomes == ["error", "pass"]
