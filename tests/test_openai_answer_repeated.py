"""A tool call answered twice in an OpenAI-format list: the same answer repeated
changes nothing, a different one leaves the call's return and status unknown. Two
answers given as objects (or in parts not read as text) that differ are different,
though neither is text: the call's return is not the first of them."""

from __future__ import annotations

import json

import referee

RULES = 'eval 1\nexpect 1: all calls to "Read" have .return.found == true\n'


def _grade(tmp_path, first: object, second: object) -> str:
    messages = [{"role": "user", "content": "find it"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": first},
                {"role": "tool", "tool_call_id": "c1", "content": second},
                {"role": "assistant", "content": "Done."}]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    return referee.grade(RULES, source, as_eval="1")[0].grading["expectations"][0]["outcome"]


def test_a_different_object_answer_leaves_the_return_unknown(tmp_path):
    assert _grade(tmp_path, {"found": True}, {"found": False}) == "error"


def test_the_same_object_answer_repeated_changes_nothing(tmp_path):
    assert _grade(tmp_path, {"found": True}, {"found": True}) == "pass"
