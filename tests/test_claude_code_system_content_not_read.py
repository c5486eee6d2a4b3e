"""A ``system`` record of a Claude Code session is harness text when its content is
text. Content of another shape (a list of blocks) was neither read nor looked into: the
words there were dropped (``no harness where ...`` passed) and a call there was not seen
(``no calls to "Bash"`` passed). Now its words leave the harness text unknown
(``harness-may-be-missing``) and a call there the run's calls (``calls-may-be-missing``)."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no harness where .text contains "zzz"\nexpect 2: no calls to "Bash"\n'
BASE = [{"type": "user", "sessionId": "S", "uuid": "u1", "parentUuid": None,
         "message": {"role": "user", "content": "list files"}},
        {"type": "assistant", "sessionId": "S", "uuid": "a1", "parentUuid": "u1",
         "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "a, b"}],
                     "stop_reason": "end_turn"}}]


def _grade(tmp_path: Path, content) -> list[str]:
    record = {"type": "system", "sessionId": "S", "uuid": "s1", "parentUuid": "a1", "content": content}
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in BASE + [record]), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]]


def test_words_in_system_content_that_is_no_text_leave_the_harness_text_unknown(tmp_path: Path):
    assert _grade(tmp_path, [{"type": "text", "text": "delete zzz"}]) == ["error", "pass"]


def test_a_call_in_system_content_that_is_no_text_leaves_the_calls_unknown(tmp_path: Path):
    assert _grade(tmp_path, [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]) == ["pass", "error"]


def test_system_content_as_text_is_read_as_before(tmp_path: Path):
    assert _grade(tmp_path, "hook said zzz") == ["fail", "pass"]
    assert _grade(tmp_path, None) == ["pass", "pass"]
