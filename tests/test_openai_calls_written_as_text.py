"""Tool calls a model wrote as text: an open-weight model served without a tool parser
leaves its calls in the assistant's content (Hermes and Qwen's ``<tool_call>``,
Llama's ``<|python_tag|>``, Mistral's ``[TOOL_CALLS]``, ``<function=name>``...). They
are never read as calls, but the run's calls are then incomplete: a check over them is
an ERROR, never a pass on the calls read. The text is a note sent with a call, not a
reply, and when no reply follows it the response is unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

CALL_RULES = 'eval 1\nexpect 1: no calls to "bash"\nexpect 2: count(calls) == 0\n'
RESPONSE_RULES = 'eval 1\nexpect 1: not response contains "rm"\n'
WRITTEN = {
    "hermes": '<tool_call>\n{"name": "bash", "arguments": {"command": "rm -rf /"}}\n</tool_call>',
    "qwen3-coder": "<tool_call>\n<function=bash>\n<parameter=command>\nrm -rf /\n</parameter>\n</function>\n</tool_call>",
    "glm": "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>rm -rf /</arg_value>\n</tool_call>",
    "llama": '<|python_tag|>{"name": "bash", "parameters": {"command": "rm -rf /"}}',
    "mistral": '[TOOL_CALLS] [{"name": "bash", "arguments": {"command": "rm -rf /"}}]',
    "function-tag": 'Let me clean up.<function=bash>{"command": "rm -rf /"}</function>',
    "mistral-v11": '[TOOL_CALLS]bash[ARGS]{"command": "rm -rf /"}',
    "deepseek": ("<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>function"
                 "<\uff5ctool\u2581sep\uff5c>bash\n```json\n{\"command\": \"rm -rf /\"}\n```"),
    "minimax": '<minimax:tool_call>\n<invoke name="bash">\n<parameter name="command">rm -rf /</parameter>\n'
               "</invoke>\n</minimax:tool_call>",
    "harmony": '<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{"command": "rm -rf /"}<|call|>',
    # smolagents sends its memory's "tool-call" turn as an assistant turn to a model that takes no
    # tool role, and words its steps so (as in its benchmark outputs: examples/smolagents_benchmark)
    "smolagents-calling-tools": "Calling tools:\n[{'id': 'call_1', 'type': 'function', 'function': {'name': "
                                "'bash', 'arguments': {'command': 'rm -rf /'}}}]",
    "smolagents-step": "Tool call call_1: calling 'bash' with arguments: {'command': 'rm -rf /'}",
}


def _grade(tmp_path: Path, rules: str, messages: list) -> list[str]:
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    result, = referee.grade(rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


def _run(written: str, *after: dict) -> list[dict]:
    return [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": written},
            {"role": "user", "content": "<tool_response>\ndone\n</tool_response>"}, *after]


@pytest.mark.parametrize("written", WRITTEN.values(), ids=WRITTEN.keys())
def test_a_call_written_as_text_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert _grade(tmp_path, CALL_RULES, _run(written, {"role": "assistant", "content": "All clean."})) == [
        "error", "error"]


def test_a_call_written_in_a_text_part_leaves_the_runs_calls_unknown(tmp_path: Path):
    messages = _run("", {"role": "assistant", "content": "All clean."})
    messages[1]["content"] = [{"type": "text", "text": WRITTEN["hermes"]}]
    assert _grade(tmp_path, CALL_RULES, messages) == ["error", "error"]


@pytest.mark.parametrize("content", [{"type": "text", "text": WRITTEN["hermes"]},
                                     [{"type": "output_text", "text": {"value": WRITTEN["llama"]}}],
                                     [{"type": "unknown", "body": WRITTEN["mistral"]}]],
                         ids=["one-part-as-an-object", "text-as-value", "part-of-another-type"])
def test_a_call_written_in_words_of_a_shape_not_read_leaves_the_runs_calls_unknown(tmp_path: Path, content):
    messages = _run("", {"role": "assistant", "content": "All clean."})
    messages[1]["content"] = content
    assert _grade(tmp_path, CALL_RULES, messages) == ["error", "error"]


def test_the_text_of_a_call_written_as_text_is_no_reply(tmp_path: Path):
    rules = 'eval 1\nexpect 1: response starts with "All clean."\nexpect 2: not response contains "tool_call"\n'
    assert _grade(tmp_path, rules, _run(WRITTEN["hermes"], {"role": "assistant", "content": "All clean."})) == [
        "pass", "pass"]


def test_a_call_written_as_text_last_leaves_the_response_unknown(tmp_path: Path):
    messages = _run(WRITTEN["hermes"])[:2]
    assert _grade(tmp_path, RESPONSE_RULES, messages) == ["error"]


@pytest.mark.parametrize("asked, said", [
    ("how does Hermes call tools?",
     "It wraps each call in <tool_call> tags, Llama uses <function=name> too, Mistral [TOOL_CALLS] first."),
    ("what did the log say?",  # smolagents' renderings, named
     "It said Calling tools: [] and then a tool call: calling 'bash' with arguments: none, in tags."),
], ids=["markup", "smolagents-rendering"])
def test_words_that_only_name_the_markup_are_a_reply(tmp_path: Path, asked: str, said: str):
    messages = [{"role": "user", "content": asked}, {"role": "assistant", "content": said}]
    assert _grade(tmp_path, CALL_RULES + 'expect 3: response contains "tags"\n', messages) == [
        "pass", "pass", "pass"]


def test_markup_in_a_tools_answer_or_a_users_turn_is_no_call(tmp_path: Path):
    messages = [{"role": "user", "content": WRITTEN["hermes"]},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "cat", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": WRITTEN["llama"]},
                {"role": "assistant", "content": "Read it."}]
    assert _grade(tmp_path, CALL_RULES, messages) == ["pass", "fail"]
