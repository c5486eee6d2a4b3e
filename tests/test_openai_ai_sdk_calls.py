"""A message list saved by the Vercel AI SDK holds its calls where the OpenAI reader
reads none: a UI message's ``toolInvocations`` (``toolName``, ``args``), its ``parts``
(``{"type": "tool-invocation", "toolInvocation": {...}}``, or in AI SDK 5 a part typed
``tool-<name>`` with its ``toolCallId`` and ``input``). Such a call is never read as
absent: ``no calls to "Bash"`` is an ERROR, never a PASS. Each source also holds a Read
call the reader takes, so the run has a record of calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

READ = [{"role": "assistant", "content": "", "tool_calls": [{"id": "r", "type": "function",
                                                            "function": {"name": "Read", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "r", "content": "file"}]
ARGS = {"command": "rm -rf build"}
INVOCATION = {"state": "result", "toolCallId": "c1", "toolName": "Bash", "args": ARGS, "result": "done"}
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: count(calls to "Read") == 1\n'

SAVED = {
    "tool-invocations": {"role": "assistant", "content": "Removed.", "toolInvocations": [INVOCATION]},
    "tool-invocation-part": {"role": "assistant", "content": "Removed.",
                             "parts": [{"type": "tool-invocation", "toolInvocation": INVOCATION}]},
    "tool-invocation-part-snake-case": {"role": "assistant", "content": "Removed.", "parts": [
        {"type": "tool-invocation", "tool_invocation": {"state": "result", "tool_name": "Bash", "args": ARGS}}]},
    "typed-tool-part": {"role": "assistant", "content": "Removed.", "parts": [
        {"type": "tool-Bash", "toolCallId": "c1", "state": "output-available", "input": ARGS, "output": "done"}]},
    "dynamic-tool-part": {"role": "assistant", "content": "Removed.", "parts": [
        {"type": "dynamic-tool", "toolName": "Bash", "toolCallId": "c1", "state": "input-available", "input": ARGS}]},
}


@pytest.mark.parametrize("message", SAVED.values(), ids=SAVED.keys())
def test_a_call_an_ai_sdk_message_holds_is_never_read_as_absent(tmp_path: Path, message: dict):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([{"role": "user", "content": "clean up"}, *READ, message]), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"], result.expectations


@pytest.mark.parametrize("message", SAVED.values(), ids=SAVED.keys())
def test_an_ai_sdk_message_that_cannot_be_read_may_hold_its_call(tmp_path: Path, message: dict):
    """The same message written with a trailing comma (no JSON): it names its call only
    in the AI SDK's words, and is still a message that may hold one."""
    source = tmp_path / "chat.json"
    broken = json.dumps(message)[:-1] + ", }"
    source.write_text("[" + ", ".join([json.dumps({"role": "user", "content": "clean up"}),
                                       *map(json.dumps, READ), broken]) + "]", encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"], result.expectations
