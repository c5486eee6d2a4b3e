"""A call a model wrote as the whole of its message, left in the content when the
serving stack parsed no call: a bare JSON object (Llama 3.1's and 3.2's JSON tool
calling, ``{"name": "bash", "parameters": {...}}``, or the same with ``arguments``), or a
Python list of calls (Llama 3.2's, 3.3's and 4's pythonic format,
``[bash(command="rm -rf /")]``). Like a call in a chat template's markup
(test_openai_calls_written_as_text), it is never read as a call, but the run's calls are
then incomplete, and its text is no reply. JSON or Python in prose, or of another shape,
is the agent's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openai_chat import call_in_text_outcomes

WRITTEN = {
    "json-llama-parameters": '{"name": "bash", "parameters": {"command": "rm -rf /"}}',
    "json-typed": '{"type": "function", "name": "bash", "parameters": {"command": "rm -rf /"}}',
    "json-arguments": '\n{"name": "bash", "arguments": {"command": "rm -rf /"}}\n',
    "json-a-list": '[{"name": "bash", "arguments": {"command": "rm -rf /"}}]',
    "json-arguments-as-json-text": json.dumps({"name": "bash", "arguments": json.dumps({"command": "rm -rf /"})}),
    "python-one-call": '[bash(command="rm -rf /tmp/x")]',
    "python-two-calls": "\n[get_weather(city='Paris', days=3), bash(command=\"rm -rf /\", timeout=None)]\n",
    "python-no-arguments": "[get_time()]",
    "python-json-literals": '[bash(command="rm -rf /", background=false, options={"a": [1, null]})]',
    "python-llama4-tokens": 'Cleaning up.<|python_start|>[bash(command="rm -rf /tmp/x")]<|python_end|>',
}
NOT_CALLS = {
    "json-a-tool-definition": '{"name": "bash", "parameters": {"type": "object", "properties": '
                              '{"command": {"type": "string"}}}}',
    "json-in-prose": 'Call it like this: {"name": "bash", "arguments": {"command": "ls"}}',
    "json-other": '{"name": "Ada", "age": 36}',
    "json-arguments-in-words": '{"name": "Ada", "arguments": "Cats are better than dogs."}',
    "python-in-prose": 'Call it like this: [bash(command="ls")]',
    "python-positional": '[print("hello")]',
    "python-a-list-of-words": "[1, 2, 3]",
    "python-a-link": "[the docs](https://example.com)",
    "python-a-computed-argument": "[bash(command=input())]",
    "python-a-method": '[os.remove(path="/tmp/x")]',
    "python-not-python": "[bash(command=rm -rf /)]",
}


@pytest.mark.parametrize("written", WRITTEN.values(), ids=WRITTEN.keys())
def test_a_call_written_whole_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert call_in_text_outcomes(tmp_path, written) == ["error", "error", "pass"]


@pytest.mark.parametrize("written", NOT_CALLS.values(), ids=NOT_CALLS.keys())
def test_json_or_python_that_is_no_call_is_a_reply(tmp_path: Path, written: str):
    assert call_in_text_outcomes(tmp_path, written, 'eval 1\nexpect 1: count(calls) == 0\n') == ["pass"]
