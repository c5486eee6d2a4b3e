"""A tool message that says its tool failed with ``"isError": true`` (as MCP's tool
results and the AG-UI protocol's tool messages write it) is an error, as one with
``"is_error": true`` is; a value that says neither leaves its call's status unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

CALL = {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
                                                            "function": {"name": "Bash", "arguments": "{}"}}]}
RULES = 'eval 1\nexpect 1: no calls to "Bash" with status error\nexpect 2: all calls have .status == "success"\n'


def _grade(tmp_path: Path, flag) -> list[str]:
    source = tmp_path / "chat.json"
    answer = {"role": "tool", "tool_call_id": "c1", "content": "permission denied", "isError": flag}
    messages = [{"role": "user", "content": "list it"}, CALL, answer, {"role": "assistant", "content": "Done."}]
    source.write_text(json.dumps(messages), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


def test_is_error_in_camel_case_is_an_error(tmp_path: Path):
    assert _grade(tmp_path, True) == ["fail", "fail"]


def test_is_error_false_in_camel_case_is_a_success(tmp_path: Path):
    assert _grade(tmp_path, False) == ["pass", "pass"]


@pytest.mark.parametrize("flag", ["true", 1])
def test_is_error_that_says_neither_leaves_the_status_unknown(tmp_path: Path, flag):
    assert _grade(tmp_path, flag) == ["error", "error"]
