"""A reply may end with objects as Python shows them, a list of reprs
(``[Point(x=1, y=2)]``, ``[User(name='a')]``), which parses as Llama's pythonic call list:
such a final reply was read as calls written as text, so the run's calls and its
response were unknown. When the run declares its tools (its request's ``tools``, or
calls read), a list whose names are all capitalised, as a class's are, and none of them
a declared tool, is data: the reply is read. A capitalised name that is a declared tool
(``Bash``) is a call, and with no tools declared the list stays a call that may have
been made."""

from __future__ import annotations

import json

import pytest

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: response contains "Point(x=1"\nexpect 2: count(calls) == 1\n'
         'expect 3: no calls to "Point"\n')
CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "get_points", "arguments": "{}"}}]}
ANSWER = {"role": "tool", "tool_call_id": "c1", "content": "1,2;3,4"}
TOOLS = [{"type": "function", "function": {"name": "get_points", "parameters": {"type": "object", "properties": {}}}}]


def _messages(reply: str, call: bool = True) -> list[dict]:
    worked = [CALL, ANSWER] if call else []
    return [{"role": "user", "content": "parse the points"}, *worked, {"role": "assistant", "content": reply}]


REPLY = "Here they are:\n[Point(x=1, y=2), Point(x=3, y=4)]"


@pytest.mark.parametrize("shape", ["request-document", "request-one-line", "calls-alone"])
def test_a_list_of_class_reprs_is_data_when_the_run_declares_its_tools(tmp_path, shape):
    if shape == "request-document":  # pretty-printed, its tools after its messages
        source = json_file(tmp_path / "run.json", {"messages": _messages(REPLY), "tools": TOOLS}, indent=1)
    elif shape == "request-one-line":
        source = tmp_path / "run.jsonl"
        source.write_text(json.dumps({"tools": TOOLS, "messages": _messages(REPLY)}) + "\n", encoding="utf-8")
    else:
        source = json_file(tmp_path / "run.json", _messages(REPLY), indent=1)
    outcomes, problems = graded(RULES, source)
    assert outcomes == ["pass", "pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems), problems


def test_a_list_of_reprs_with_no_tools_declared_stays_unsure(tmp_path):
    outcomes, _ = graded(RULES, json_file(tmp_path / "run.json", _messages(REPLY, call=False), indent=1))
    assert outcomes == ["error", "error", "error"]


@pytest.mark.parametrize("reply", ['[Bash(command="rm -rf /tmp/x")]', "[Point(x=1), get_points()]",
                                   "[get_points(), Point(x=1)]"])
def test_a_declared_tool_or_a_lowercase_name_among_them_is_a_call(tmp_path, reply):
    tools = TOOLS + [{"type": "function", "function": {"name": "Bash"}}]
    source = json_file(tmp_path / "run.json", {"messages": _messages(reply), "tools": tools}, indent=1)
    outcomes, problems = graded('eval 1\nexpect 1: count(calls) == 1\n', source)
    assert outcomes == ["error"]
    assert any("calls-may-be-missing" in p for p in problems), problems
