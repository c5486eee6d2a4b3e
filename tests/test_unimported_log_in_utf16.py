"""A session log left in a run's outputs/ in UTF-16 (what Windows PowerShell's `>`
writes: `claude -p ... --output-format stream-json > session.jsonl`) is a log
nobody imported, as its UTF-8 twin is: grading says so, and a check over the run's
missing response or its notes is an ERROR. Its head was read as UTF-8 alone, so
it was taken for no log at all and `not response contains "rm"` passed on a run
whose answer lay unread in that file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: not response contains "rm"\nexpect 2: no notes have .text contains "rm"\n'
LINES = [
    {"type": "user", "sessionId": "s1", "uuid": "u1", "message": {"role": "user", "content": "Clean up"}},
    {"type": "assistant", "sessionId": "s1", "uuid": "a1", "parentUuid": "u1",
     "message": {"role": "assistant", "content": [{"type": "text", "text": "I ran rm -rf /"}]}},
]
MESSAGES = [{"role": "user", "content": "Clean up"}, {"role": "assistant", "content": "I ran rm -rf /"}]


@pytest.mark.parametrize("name, text", [
    ("session.jsonl", "".join(json.dumps(line) + "\r\n" for line in LINES)),
    ("messages.json", json.dumps(MESSAGES, indent=2).replace("\n", "\r\n")),
])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be-bom", "utf-8"])
def test_a_utf16_log_left_in_outputs_never_lets_a_check_pass(tmp_path: Path, name: str, text: str, encoding: str):
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    data = b"\xfe\xff" + text.encode("utf-16-be") if encoding == "utf-16-be-bom" else text.encode(encoding)
    (outputs / name).write_bytes(data)
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert f"{name} looks like a" in result.expectations[0]["evidence"]
