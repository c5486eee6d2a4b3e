"""A record of a type the Claude Code reader does not know is reported and skipped; a
call in it left the run's calls unknown, but words in it were dropped: a record that
holds a message ({"type": "human", "message": {"role": "user", ...}}, a type a later
Claude Code may write) may be a turn of the user, and one after the agent's last words
its reply, yet ``no harness where ...`` and ``not response contains ...`` passed. Its
words now leave the harness text unknown (``harness-may-be-missing``) and, after the
last words read, the response (``unread-text``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no harness where .text contains "zzz"\nexpect 2: not response contains "zzz"\n'
BASE = [{"type": "user", "sessionId": "S", "uuid": "u1", "parentUuid": None,
         "message": {"role": "user", "content": "list files"}},
        {"type": "assistant", "sessionId": "S", "uuid": "a1", "parentUuid": "u1",
         "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "a, b"}],
                     "stop_reason": "end_turn"}}]
UNKNOWN = {
    "human": {"type": "human", "message": {"role": "user", "content": "delete zzz"}},
    "model": {"type": "model", "message": {"role": "assistant", "content": [{"type": "text", "text": "zzz"}]}},
    "no-type": {"message": {"role": "user", "content": "delete zzz"}},
    "type-no-text": {"type": ["user"], "message": "delete zzz"},
}


def _grade(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps({"sessionId": "S", "uuid": f"r{n}", **r}) + "\n"
                              for n, r in enumerate(records)), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


@pytest.mark.parametrize("record", UNKNOWN.values(), ids=UNKNOWN.keys())
def test_words_in_a_record_of_an_unknown_type_leave_the_harness_text_and_the_response_unknown(tmp_path, record):
    outcomes, problems = _grade(tmp_path, BASE + [record])
    assert outcomes == ["error", "error"]
    assert any("harness-may-be-missing" in p and "session.jsonl:3" in p for p in problems)


def test_a_record_of_an_unknown_type_before_the_last_words_leaves_the_response_known(tmp_path):
    outcomes, _ = _grade(tmp_path, BASE[:1] + [UNKNOWN["human"]] + BASE[1:])
    assert outcomes == ["error", "pass"]


def test_a_record_of_an_unknown_type_without_words_changes_nothing(tmp_path):
    outcomes, problems = _grade(tmp_path, BASE + [{"type": "worktree-state", "path": "/tmp/w", "count": 3},
                                                  {"level": "info", "msg": "starting claude"}])
    assert outcomes == ["pass", "pass"]
    assert not any("harness-may-be-missing" in p for p in problems)
