"""A reasoning part of an assistant message's content (``{"type": "reasoning", "text":
...}``, as the Vercel AI SDK and others save the model's reasoning beside its text) is
the model's reasoning, never a reply, as a Responses API reasoning item is: the
response is the message's text parts alone."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = ('eval 1\nexpect 1: response contains "Cleaned up"\nexpect 2: not response contains "rm -rf"\n'
         'expect 3: response contains "I deleted"\n')


def test_reasoning_parts_are_no_part_of_the_response(tmp_path: Path):
    source = tmp_path / "chat.json"
    messages = [{"role": "user", "content": "clean up"},
                {"role": "assistant", "content": [
                    {"type": "reasoning", "text": "I deleted nothing yet; rm -rf build would do it."},
                    {"type": "text", "text": "Cleaned up the build folder."}]}]
    source.write_text(json.dumps(messages, indent=1), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["pass", "pass", "fail"], result.expectations
