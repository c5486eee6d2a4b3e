"""LlamaIndex keeps a chat message's words in its ``blocks`` (``ChatMessage.model_dump()``
gives ``{"role", "additional_kwargs", "blocks": [{"block_type": "text", "text": ...}]}``
and no ``content``), and an agent's calls in ``additional_kwargs`` and as ``tool_call``
blocks. Such a list was imported with its calls unknown, but the words of its user turns
dropped without a word: ``exactly 0 harness where .text contains "Berlin"`` passed on a
run whose user asked about Berlin. Text blocks the content does not hold are words not
read, as a UI message's parts are: the harness text is unknown, and a reply so written
leaves the response unknown."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.writer import render_run


def _text(text: str) -> dict:
    return {"block_type": "text", "text": text}


CALL = {"index": 0, "id": "call_7P", "type": "function",
        "function": {"arguments": "{\"city\":\"Berlin\"}", "name": "get_weather"}}
# an agent's memory as LlamaIndex dumps it (llama-index-core's ChatMessage.model_dump())
AGENT = [
    {"role": "system", "additional_kwargs": {}, "blocks": [_text("You are a helpful assistant with tools.")]},
    {"role": "user", "additional_kwargs": {}, "blocks": [_text("What's the weather in Berlin right now?")]},
    {"role": "assistant", "additional_kwargs": {"tool_calls": [CALL]},
     "blocks": [_text(""), {"block_type": "tool_call", "tool_call_id": "call_7P", "tool_name": "get_weather",
                            "tool_kwargs": "{\"city\":\"Berlin\"}"}]},
    {"role": "tool", "additional_kwargs": {"tool_call_id": "call_7P"},
     "blocks": [_text("{'city': 'Berlin', 'temperature_c': 21}")]},
    {"role": "assistant", "additional_kwargs": {}, "blocks": [_text("It is 21 degrees in Berlin.")]},
]


def _grade(tmp_path: Path, messages: list, rules: str) -> list[str]:
    source = tmp_path / "memory.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    result, = referee.grade(rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


def test_an_agents_memory_in_blocks_leaves_its_harness_text_unknown(tmp_path: Path):
    rules = ('eval 1\nexpect 1: exactly 0 harness where .text contains "Berlin"\n'
             'expect 2: not response contains "21 degrees"\n')
    assert _grade(tmp_path, AGENT, rules) == ["error", "error"]


def test_a_user_turn_in_blocks_beside_read_messages_is_words_not_read(tmp_path: Path):
    messages = [{"role": "user", "additional_kwargs": {}, "blocks": [_text("Book it. Never say banana.")]},
                {"role": "assistant", "content": "Done."}]
    rules = 'eval 1\nexpect 1: exactly 0 harness where .text contains "banana"\nexpect 2: response contains "Done"\n'
    assert _grade(tmp_path, messages, rules) == ["error", "pass"]
    source = tmp_path / "memory.json"
    (found,) = conversations("openai", [source])
    problems = json.loads(render_run(found).files["source_map.json"])["problems"]
    assert any(p["code"] == "harness-may-be-missing" and "blocks" in p["message"] for p in problems), problems


def test_a_reply_in_blocks_after_a_reply_read_leaves_the_response_unknown(tmp_path: Path):
    messages = [{"role": "user", "content": "Weather in Berlin?"},
                {"role": "assistant", "content": "Let me look."},
                {"role": "assistant", "additional_kwargs": {}, "blocks": [_text("It is 21 degrees.")]}]
    rules = 'eval 1\nexpect 1: not response contains "21 degrees"\n'
    assert _grade(tmp_path, messages, rules) == ["error"]


def test_blocks_the_content_holds_and_blocks_of_no_words_lose_nothing(tmp_path: Path):
    messages = [{"role": "user", "content": "Weather in Berlin?", "blocks": [_text("Weather in Berlin?")]},
                {"role": "assistant", "content": "It is 21 degrees.",
                 "blocks": [_text("It is 21 degrees."), {"block_type": "thinking", "content": "easy"},
                            {"block_type": "image", "url": "https://example.com/berlin.png"}]}]
    rules = ('eval 1\nexpect 1: exactly 1 harness where .text contains "Berlin"\n'
             'expect 2: response contains "21 degrees"\n')
    assert _grade(tmp_path, messages, rules) == ["pass", "pass"]
