"""A call written as a ``name`` with its ``args`` reads as a call wherever the reader
skips it: LangChain writes its calls so (``tool_calls`` and ``invalid_tool_calls``, the
latter without a ``type`` in older versions), and so does the Gemini API
(``{"functionCall": {"name": ..., "args": ...}}``). In an OpenAI message list, a message
holding one beside what is read makes the run's calls unknown: ``no calls to "Bash"``
is an ERROR, never a PASS on the calls read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

READ = [{"role": "user", "content": "clean up"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "r", "type": "function",
                                                            "function": {"name": "Read", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "r", "content": "file"}]
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: count(calls to "Read") == 1\n'

HELD = {
    "langchain-invalid-tool-call": {"role": "assistant", "content": "", "invalid_tool_calls": [
        {"name": "Bash", "args": '{"command": "rm -rf build"', "id": "c2", "error": "not JSON"}]},
    "gemini-function-call": {"role": "model", "parts": [{"functionCall": {"name": "Bash",
                                                                          "args": {"command": "rm -rf build"}}}]},
}


@pytest.mark.parametrize("message", HELD.values(), ids=HELD.keys())
def test_a_call_named_with_its_args_is_never_read_as_absent(tmp_path: Path, message: dict):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(READ + [message, {"role": "assistant", "content": "Done."}]), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"], result.expectations
