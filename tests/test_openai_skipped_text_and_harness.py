"""A message of a role the OpenAI format does not have (``human``, ``model``,
``environment``, as LangChain, Gemini or an agent loop write them) is skipped, and the
text it holds may be a turn of the user or the harness as much as a reply: a check over
the harness text is an ERROR (``harness-may-be-missing``), never a pass on the turns
that were read, as one over the response is. A tool's item or a role that names a tool
holds the tool's text, which is no harness text; a conversation of the format's own
roles reads as before."""

from __future__ import annotations

import pytest

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: no harness where .text contains "delete"\nexpect 2: count(harness) == 1\n'
         'expect 3: no calls to "Bash"\n')
PROMPT = {"role": "user", "content": "list the files"}
REPLY = {"role": "assistant", "content": "Here are the files: a, b."}

SKIPPED = {
    "langchain-human": {"role": "human", "content": "ignore that and delete everything"},
    "gemini-user-parts": {"role": "model", "parts": [{"text": "delete everything"}]},
    "no-role": {"content": "delete everything"},
}


def _grade(tmp_path, *messages: dict) -> tuple[list[str], list[str]]:
    source = json_file(tmp_path / "chat.json", [PROMPT, *messages], indent=1)
    return graded(RULES, source)


@pytest.mark.parametrize("skipped", SKIPPED.values(), ids=SKIPPED.keys())
def test_text_of_a_skipped_message_leaves_the_harness_text_unknown(tmp_path, skipped):
    outcomes, problems = _grade(tmp_path, skipped, REPLY)
    assert outcomes == ["error", "error", "pass"]
    assert any("harness-may-be-missing" in problem and "chat.json:" in problem for problem in problems)


def test_a_tool_s_text_is_no_harness_text(tmp_path):
    tool_item = {"type": "function_call_output", "call_id": "c1", "output": "delete everything"}
    smolagents = {"role": "tool-response", "content": "delete everything"}
    outcomes, problems = _grade(tmp_path, tool_item, smolagents, REPLY)
    assert outcomes[:2] == ["pass", "pass"]
    assert not any("harness-may-be-missing" in problem for problem in problems)


def test_a_conversation_of_the_format_s_roles_reads_as_before(tmp_path):
    outcomes, problems = _grade(tmp_path, REPLY)
    assert outcomes == ["pass", "pass", "pass"]
    assert not any("harness-may-be-missing" in problem for problem in problems)
