"""A line of a Claude Code session that is JSON but no object (a list of records, as
a tool that gathers them writes it) is reported and skipped; a call in it left the
run's calls unknown, but a turn of the user in it was dropped: ``no harness where ...``
passed. A message's words in such a line now leave the harness text unknown
(``harness-may-be-missing``)."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no harness where .text contains "zzz"\n'
BASE = [{"type": "user", "sessionId": "S", "uuid": "u1", "parentUuid": None,
         "message": {"role": "user", "content": "list files"}},
        {"type": "assistant", "sessionId": "S", "uuid": "a1", "parentUuid": "u1",
         "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "a, b"}],
                     "stop_reason": "end_turn"}}]


def _grade(tmp_path: Path, line) -> tuple[list[str], list[str]]:
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in BASE + [line]), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


def test_a_list_of_records_on_a_line_leaves_the_harness_text_unknown(tmp_path: Path):
    outcomes, problems = _grade(tmp_path, [{"type": "user", "message": {"role": "user", "content": "delete zzz"}}])
    assert outcomes == ["error"]
    assert any("harness-may-be-missing" in p and "session.jsonl:3" in p for p in problems)


def test_a_line_with_no_message_leaves_the_harness_text_known(tmp_path: Path):
    assert _grade(tmp_path, ["zzz", 3])[0] == ["pass"]
    assert _grade(tmp_path, "starting zzz")[0] == ["pass"]
