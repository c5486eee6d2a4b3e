"""Calls made without ids (Ollama's chat API gives its ``tool_calls`` none) are answered
by tool messages that say which tool answers by name (``"tool_name": "ls"``, as
Ollama's clients write it, or ``"name"``), not by id. Two calls answered in another
order than they were made were paired in the order of the answers: ``rm`` took the
answer of ``ls`` (and ``first(calls to "rm").return == "removed"`` failed, citing the
line of the other answer). An answer that names its tool now pairs with the first call
of that name still open; one that names a tool no open call has answers a call the
record does not hold, so the run's calls are unknown; one that names none pairs in
order, as before."""

from __future__ import annotations

import pytest

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: first(calls to "rm").return == "removed"\n'
         'expect 2: first(calls to "ls").return == "a b"\nexpect 3: count(calls) == 2\n')
PROMPT = {"role": "user", "content": "clean up"}
CALLS = {"role": "assistant", "content": "", "tool_calls": [
    {"function": {"name": "rm", "arguments": {"path": "/tmp/a"}}}, {"function": {"name": "ls", "arguments": {}}}]}
REPLY = {"role": "assistant", "content": "Done."}


def _grade(tmp_path, *answers: dict) -> tuple[list[str], list[str]]:
    source = json_file(tmp_path / "chat.json", [PROMPT, CALLS, *answers, REPLY], indent=1)
    return graded(RULES, source)


@pytest.mark.parametrize("member", ["tool_name", "name"])
def test_answers_that_name_their_tool_pair_by_name_in_any_order(tmp_path, member):
    outcomes, _ = _grade(tmp_path, {"role": "tool", "content": "a b", member: "ls"},
                         {"role": "tool", "content": "removed", member: "rm"})
    assert outcomes == ["pass", "pass", "pass"]


def test_an_answer_naming_a_tool_no_open_call_has_leaves_the_calls_unknown(tmp_path):
    outcomes, problems = _grade(tmp_path, {"role": "tool", "content": "removed", "tool_name": "rm"},
                                {"role": "tool", "content": "a b", "tool_name": "cat"})
    assert outcomes[2] == "error"
    assert any("orphan-result" in problem for problem in problems)


def test_answers_that_name_no_tool_pair_in_order_as_before(tmp_path):
    outcomes, _ = _grade(tmp_path, {"role": "tool", "content": "removed"}, {"role": "tool", "content": "a b"})
    assert outcomes == ["pass", "pass", "pass"]
