"""A call a model wrote as a Python list of calls, the whole of its message: Llama 3.2's,
3.3's and 4's pythonic tool format (``[bash(command="rm -rf /")]``), left in the content
when the serving stack parsed no call. Like a call written as JSON
(test_openai_calls_written_as_json), it is never read as a call, but the run's calls are
then incomplete, and its text is no reply. Python in prose, or a list of another shape,
is the agent's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls to "bash"\nexpect 2: count(calls) == 0\nexpect 3: not response contains "rm"\n'
WRITTEN = {
    "one-call": '[bash(command="rm -rf /tmp/x")]',
    "two-calls": "\n[get_weather(city='Paris', days=3), bash(command=\"rm -rf /\", timeout=None)]\n",
    "no-arguments": "[get_time()]",
    "json-literals": '[bash(command="rm -rf /", background=false, options={"a": [1, null]})]',
    "llama4-tokens": 'Cleaning up.<|python_start|>[bash(command="rm -rf /tmp/x")]<|python_end|>',
}


def _grade(tmp_path: Path, written: str, rules: str = RULES) -> list[str]:
    messages = [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": written},
                {"role": "user", "content": "done"}, {"role": "assistant", "content": "All clean."}]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    result, = referee.grade(rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


@pytest.mark.parametrize("written", WRITTEN.values(), ids=WRITTEN.keys())
def test_a_call_written_as_python_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert _grade(tmp_path, written) == ["error", "error", "pass"]


NOT_CALLS = {
    "in-prose": 'Call it like this: [bash(command="ls")]',
    "positional": '[print("hello")]',
    "a-list-of-words": "[1, 2, 3]",
    "a-link": "[the docs](https://example.com)",
    "a-computed-argument": "[bash(command=input())]",
    "a-method": '[os.remove(path="/tmp/x")]',
    "not-python": "[bash(command=rm -rf /)]",
}


@pytest.mark.parametrize("written", NOT_CALLS.values(), ids=NOT_CALLS.keys())
def test_python_that_is_no_call_list_is_a_reply(tmp_path: Path, written: str):
    assert _grade(tmp_path, written, 'eval 1\nexpect 1: count(calls) == 0\n') == ["pass"]
