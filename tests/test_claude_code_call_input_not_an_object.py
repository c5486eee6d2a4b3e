"""A Claude Code ``tool_use`` block keeps its arguments in ``input``, an object. One whose
input is anything else (a string holding JSON again, a list, a number) was kept as it
was and read as a call with no such field: ``no calls where .args.command contains
"rm"`` passed on {"input": "{\\"command\\": \\"rm x\\"}"}. Its args are now unknown
(``bad-arguments``; a check on their fields is an ERROR), as for OpenAI arguments that
are no object. An input left out is no arguments, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls to "Bash") == 1\n'


def _grade(tmp_path: Path, block: dict) -> tuple[list[str], list[str]]:
    records = [{"type": "user", "sessionId": "S", "uuid": "u1", "parentUuid": None,
                "message": {"role": "user", "content": "clean up"}},
               {"type": "assistant", "sessionId": "S", "uuid": "a1", "parentUuid": "u1",
                "message": {"id": "m1", "role": "assistant", "content": [block], "stop_reason": "tool_use"}},
               {"type": "user", "sessionId": "S", "uuid": "r1", "parentUuid": "a1", "message": {"role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]}},
               {"type": "assistant", "sessionId": "S", "uuid": "a2", "parentUuid": "r1",
                "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "done"}],
                            "stop_reason": "end_turn"}}]
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


@pytest.mark.parametrize("given", ['{"command": "rm x"}', ["rm", "x"], 7], ids=["json-text", "list", "number"])
def test_input_that_is_no_object_leaves_the_args_unknown(tmp_path: Path, given):
    outcomes, problems = _grade(tmp_path, {"type": "tool_use", "id": "t", "name": "Bash", "input": given})
    assert outcomes == ["error", "pass"]
    assert any("bad-arguments" in p and "session.jsonl:2" in p for p in problems)


@pytest.mark.parametrize("block", [{"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": "ls"}},
                                   {"type": "tool_use", "id": "t", "name": "Bash"}], ids=["object", "left-out"])
def test_input_as_an_object_or_left_out_is_read_as_before(tmp_path: Path, block: dict):
    outcomes, problems = _grade(tmp_path, block)
    assert outcomes == ["pass", "pass"]
    assert not any("bad-arguments" in p for p in problems)
