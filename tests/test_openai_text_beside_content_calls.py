"""Text an assistant message sends with a call is an agent note, not a reply
(docs/import.md), also when the call is a block of its content that the OpenAI reader
does not read: an Anthropic Messages API ``tool_use`` block, a Vercel AI SDK
``tool-call`` part. The run's calls are unknown either way; its response is the replies
without a call, never the narration of a call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: response contains "Deleting"\nexpect 2: response contains "All done"\n'
ARGS = {"command": "rm -rf build"}
CALLS = {
    "tool-use-block": {"type": "tool_use", "id": "c1", "name": "Bash", "input": ARGS},
    "ai-sdk-tool-call-part": {"type": "tool-call", "toolCallId": "c1", "toolName": "Bash", "args": ARGS},
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_text_sent_with_a_call_in_the_content_is_no_reply(tmp_path: Path, call: dict):
    source = tmp_path / "chat.json"
    messages = [{"role": "user", "content": "clean up"},
                {"role": "assistant", "content": [{"type": "text", "text": "Deleting the build folder."}, call]},
                {"role": "assistant", "content": [{"type": "text", "text": "All done."}]}]
    source.write_text(json.dumps(messages, indent=1), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "pass"], result.expectations
