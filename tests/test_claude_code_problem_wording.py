"""A Claude Code import's warnings read as sentences: the part not read is named, then
what it holds ("this system record's content, which is no text, not read, holds ..."),
never with a doubled comma where the two meet."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\n'
CALL = {"type": "tool_use", "id": "t9", "name": "Bash", "input": {"command": "rm -rf /"}}
RECORDS = [{"sessionId": "S", "uuid": f"r{n}", **record} for n, record in enumerate([
    {"type": "user", "message": {"role": "user", "content": "Fix the bug."}},
    {"type": "system", "content": [CALL]},
    {"type": "user", "message": {"role": "user", "content": {"held": CALL}}},
    {"type": "user", "message": ["no object", CALL]},
    {"type": "attachment", "attachment": {"type": "queued_command", "prompt": "go on", "extra": CALL}},
    {"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [
        {"type": "text", "text": "Done.", "extra": CALL}]}},
])]


def test_no_warning_doubles_a_comma(tmp_path: Path):
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    problems = result.grading["problems"]
    assert len([p for p in problems if "not read" in p]) >= 4, problems
    assert [p for p in problems if ",," in p] == []
