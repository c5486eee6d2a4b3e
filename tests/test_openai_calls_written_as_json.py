"""A call a model wrote as a bare JSON object, the whole of its message: Llama 3.1's and
3.2's JSON tool calling (``{"name": "bash", "parameters": {...}}``), or the same with
``arguments``, left in the content when the serving stack parsed no call. Like a call in
a chat template's markup (test_openai_calls_written_as_text), it is never read as a call,
but the run's calls are then incomplete, and its text is no reply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls to "bash"\nexpect 2: count(calls) == 0\nexpect 3: not response contains "rm"\n'
WRITTEN = {
    "llama-parameters": '{"name": "bash", "parameters": {"command": "rm -rf /"}}',
    "typed": '{"type": "function", "name": "bash", "parameters": {"command": "rm -rf /"}}',
    "arguments": '\n{"name": "bash", "arguments": {"command": "rm -rf /"}}\n',
    "a-list": '[{"name": "bash", "arguments": {"command": "rm -rf /"}}]',
    "arguments-as-json-text": json.dumps({"name": "bash", "arguments": json.dumps({"command": "rm -rf /"})}),
}


def _grade(tmp_path: Path, written: str, rules: str = RULES) -> list[str]:
    messages = [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": written},
                {"role": "user", "content": "done"}, {"role": "assistant", "content": "All clean."}]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    result, = referee.grade(rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


@pytest.mark.parametrize("written", WRITTEN.values(), ids=WRITTEN.keys())
def test_a_call_written_as_json_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert _grade(tmp_path, written) == ["error", "error", "pass"]


NOT_CALLS = {
    "a-tool-definition": '{"name": "bash", "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}',
    "json-in-prose": 'Call it like this: {"name": "bash", "arguments": {"command": "ls"}}',
    "other-json": '{"name": "Ada", "age": 36}',
    "arguments-in-words": '{"name": "Ada", "arguments": "Cats are better than dogs."}',
}


@pytest.mark.parametrize("written", NOT_CALLS.values(), ids=NOT_CALLS.keys())
def test_json_that_is_no_call_is_a_reply(tmp_path: Path, written: str):
    assert _grade(tmp_path, written, 'eval 1\nexpect 1: count(calls) == 0\n') == ["pass"]
