"""A tool's answer held in a message's content, where the OpenAI reader reads none: an
Anthropic Messages API ``tool_result`` block in a user message (a list that mixes the
two APIs' shapes), or a Vercel AI SDK ``tool-result`` part. The call it answers may be
one the reader took, left with no answer (``no_result``) though the answer says it
failed: ``no calls to "Bash" with status error`` is an ERROR, never a PASS."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

CALL = {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
                                                            "function": {"name": "Bash", "arguments": "{}"}}]}
RULES = ('eval 1\nexpect 1: no calls to "Bash" with status error\n'
         'expect 2: count(calls with status error) == 0\n')

ANSWERS = {
    "tool-result-block": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "c1", "content": "permission denied", "is_error": True}]},
    "ai-sdk-tool-result-part": {"role": "user", "content": [
        {"type": "tool-result", "toolCallId": "c1", "result": "permission denied", "isError": True}]},
}


@pytest.mark.parametrize("answer", ANSWERS.values(), ids=ANSWERS.keys())
def test_an_answer_the_reader_skips_leaves_the_calls_unknown(tmp_path: Path, answer: dict):
    source = tmp_path / "chat.json"
    messages = [{"role": "user", "content": "list it"}, CALL, answer, {"role": "assistant", "content": "Done."}]
    source.write_text(json.dumps(messages), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"], result.expectations


def test_a_tool_message_answering_its_call_is_read_as_it_was(tmp_path: Path):
    source = tmp_path / "chat.json"
    answer = {"role": "tool", "tool_call_id": "c1", "content": "permission denied", "status": "error"}
    messages = [{"role": "user", "content": "list it"}, CALL, answer, {"role": "assistant", "content": "Done."}]
    source.write_text(json.dumps(messages), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "fail"], result.expectations
