"""Gemma 4 and FunctionGemma write a tool call in their own tokens
(``<|tool_call>call:name{...}<tool_call|>``, ``<start_function_call>call:name{...}
<end_function_call>``), left in the content when the serving stack parsed no call: the
run's calls are unknown (a negative check is an ERROR, never a pass), no call is
invented, and the text is a note. Words that only name the tokens stay a reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import call_in_text_outcomes

WRITTEN = {
    "gemma-4": '<|tool_call>call:bash{command:<|"|>rm -rf /tmp/x<|"|>}<tool_call|>',
    "gemma-4-after-words": 'Cleaning up.\n<|tool_call>call:bash{command:<|"|>rm -rf /tmp/x<|"|>}<tool_call|>',
    "functiongemma": "<start_function_call>call:bash{command:<escape>rm -rf /tmp/x<escape>}<end_function_call>",
}
WORDS = {
    "names-the-token": "Gemma 4 opens a call with <|tool_call> and closes it with <tool_call|>.",
    "names-functiongemma": "FunctionGemma writes <start_function_call> before its calls.",
}


@pytest.mark.parametrize("written", WRITTEN.values(), ids=WRITTEN.keys())
def test_a_gemma_call_written_as_text_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert call_in_text_outcomes(tmp_path, written) == ["error", "error", "pass"]


@pytest.mark.parametrize("written", WORDS.values(), ids=WORDS.keys())
def test_words_naming_the_tokens_are_a_reply(tmp_path: Path, written: str):
    assert call_in_text_outcomes(tmp_path, written, 'eval 1\nexpect 1: count(calls) == 0\n') == ["pass"]
