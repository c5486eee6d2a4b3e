"""LangChain's own message dicts are not read (docs/import.md): a message saved with
``messages_to_dict`` (``{"type": "ai", "data": {"content": ...}}``) or ``model_dump``
(``{"type": "ai", "content": ...}``) or ``dumpd`` (``{"lc": 1, "kwargs": {"content": ...}}``,
as LangGraph's JavaScript client saves it too) in an OpenAI message list has no role and is
skipped. Its words may be the agent's reply, wherever its fields are, so the response
is unknown: ``not response contains "Deleted"`` is an ERROR, never a pass on an empty
response. A call it holds leaves the run's calls unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: not response contains "Deleted"\nexpect 2: no calls to "Bash"\n'
OPENAI = [{"role": "user", "content": "clean up"},
          {"role": "assistant", "content": "", "tool_calls": [{"id": "r", "type": "function",
                                                               "function": {"name": "Read", "arguments": "{}"}}]},
          {"role": "tool", "tool_call_id": "r", "content": "file"}]
CALL = {"name": "Bash", "args": {"command": "rm -rf build"}, "id": "c1", "type": "tool_call"}

SAVED = {
    "messages-to-dict": [{"type": "ai", "data": {"content": "", "type": "ai", "tool_calls": [CALL]}},
                         {"type": "tool", "data": {"content": "done", "type": "tool", "tool_call_id": "c1"}},
                         {"type": "ai", "data": {"content": "Deleted the build folder.", "type": "ai"}}],
    "dumpd": [{"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "AIMessage"],
               "kwargs": {"content": "", "tool_calls": [CALL]}},
              {"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "ToolMessage"],
               "kwargs": {"content": "done", "tool_call_id": "c1"}},
              {"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "AIMessage"],
               "kwargs": {"content": "Deleted the build folder."}}],
    "model-dump": [{"content": "", "type": "ai", "tool_calls": [CALL]},
                   {"content": "done", "type": "tool", "tool_call_id": "c1"},
                   {"content": "Deleted the build folder.", "type": "ai"}],
}


@pytest.mark.parametrize("saved", SAVED.values(), ids=SAVED.keys())
def test_a_langchain_message_in_an_openai_list_leaves_its_words_and_calls_unknown(tmp_path: Path, saved: list):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(OPENAI + saved, indent=1), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"], result.expectations
