"""An OpenAI-format source that holds a call referee does not read never lets a check
over the run's calls pass: each source below holds a Bash call in a place the reader
skips or cannot read, and ``no calls to "Bash"`` is an ERROR on it, never a PASS.
Every source also holds a Read call it reads, so the run has a record of calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations

READ = {"role": "assistant", "tool_calls": [{"id": "r", "function": {"name": "Read", "arguments": "{}"}}]}
BASH_CALL = {"id": "b", "function": {"name": "Bash", "arguments": "{}"}}
BASH = {"role": "assistant", "tool_calls": [BASH_CALL]}
R, B = json.dumps(READ), json.dumps(BASH)
ONE = '{"messages": [' + R + ']}\n'  # a second conversation, on the next line
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: count(calls to "Read") == 1\n'

HIDDEN = {
    # a second message list, its key written with an escape: "mess\u0061ges" is "messages"
    "escaped-key-after": ("s.json", '{"messages": [' + R + '], "mess\\u0061ges": [' + B + ']}'),
    "escaped-key-before": ("s.json", '{"mess\\u0061ges": [' + B + '], "messages": [' + R + ']}'),
    # a conversation of tau-bench's results, or of a JSON line, giving its list twice
    "results-key-twice": ("s.json", '[{"messages": [' + B + '], "messages": [' + R + ']}]'),
    "results-messages-and-traj": ("s.json", '[{"messages": [' + R + '], "traj": [' + B + ']}]'),
    "line-key-twice": ("s.jsonl", '{"messages": [' + B + '], "messages": [' + R + ']}\n' + ONE),
    "line-messages-and-traj": ("s.jsonl", '{"traj": [' + B + '], "messages": [' + R + ']}\n' + ONE),
    # calls a message holds in a shape the reader cannot take
    "call-without-function": ("s.json", "[" + R + ', {"role": "assistant", "tool_calls": ["Bash"]}]'),
    "tool-calls-an-object": ("s.json", "[" + R + ', {"role": "assistant", "tool_calls": {"0": '
                             + json.dumps(BASH_CALL) + "}}]"),
    "function-call-text": ("s.json", "[" + R + ', {"role": "assistant", "function_call": "Bash"}]'),
    # elements of the message list that are no message object
    "message-as-json-text": ("s.json", "[" + R + ", " + json.dumps(B) + "]"),
    "messages-in-a-list": ("s.json", "[" + R + ", [" + B + "]]"),
    # a call where this importer reads none: a content part, another role, a Responses API item
    "call-in-content-parts": ("s.json", "[" + R + ', {"role": "assistant", "content": [{"type": "text", "text": "x"}, '
                              '{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}]}]'),
    "tool-calls-of-a-user": ("s.json", "[" + R + ', {"role": "user", "content": "hi", "tool_calls": ['
                             + json.dumps(BASH_CALL) + "]}]"),
    "function-call-item": ("s.json", "[" + R + ', {"role": "assistant", "type": "function_call", "call_id": "c", '
                           '"name": "Bash", "arguments": "{}"}]'),
    # a call beside the message list: a logged response, a Responses API output
    "response-beside": ("s.json", '{"messages": [' + R + '], "choices": [{"message": ' + B + "}]}"),
    # a logged response kept as the text its API returned
    "response-beside-as-text": ("s.json", '{"messages": [' + R + '], "response": '
                                + json.dumps(json.dumps({"choices": [{"message": BASH}]})) + "}"),
    "output-beside": ("s.json", '{"output": [{"type": "function_call", "name": "Bash", "arguments": "{}"}], '
                      '"messages": [' + R + "]}"),
    # a message on a line of its own among conversations, after the one it belongs to
    "message-line-after": ("s.jsonl", '{"messages": [' + R + ']}\n' + B + "\n"),
    # a call beside the list by any name a call goes by, or none
    "mcp-call-beside": ("s.json", '{"messages": [' + R + '], "output": [{"type": "mcp_call", "name": "Bash", '
                        '"arguments": "{}"}]}'),
    "bare-call-beside": ("s.json", '{"messages": [' + R + '], "result": {"name": "Bash", "arguments": "{}"}}'),
    # a message that cannot be read and names a call as tool_use; a role-less bare call
    "unreadable-tool-use": ("s.json", "[" + R + ', {"role": "assistant", "content": [{"type": "tool_use", '
                            '"name": "Bash", "input": {}}],}]'),
    "role-less-call": ("s.json", "[" + R + ', {"name": "Bash", "arguments": "{}"}]'),
    # a Responses API answer item that holds a call beside its output
    "call-in-an-answer-item": ("s.json", '[{"type": "function_call", "call_id": "r", "name": "Read", "arguments": '
                               '"{}", "status": "completed"}, {"type": "function_call_output", "call_id": "r", '
                               '"output": "ok", "status": "completed", "extra": {"type": "function_call", '
                               '"call_id": "b", "name": "Bash", "arguments": "{}"}}]'),
    # a call element that holds another call beside its function
    "call-in-function": ("s.json", '[{"role": "assistant", "tool_calls": [{"id": "r", "function": {"name": "Read", '
                         '"arguments": "{}", "then": {"name": "Bash", "arguments": "{}"}}}]}]'),
    "call-beside-function": ("s.json", '[{"role": "assistant", "tool_calls": [{"id": "r", "function": '
                             '{"name": "Read", "arguments": "{}"}, "custom": {"name": "Bash", "input": "ls"}}]}]'),
}


@pytest.mark.parametrize("name, text", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_call_the_reader_skips_makes_the_checks_over_calls_errors(tmp_path: Path, name: str, text: str):
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    first, *others = referee.grade(RULES, source, as_eval="1")  # a second line's conversation is read as it is
    assert [item["outcome"] for item in first.expectations] == ["error", "error"], first.expectations
    assert [[item["outcome"] for item in other.expectations] for other in others] in ([], [["pass", "pass"]])


def test_an_escaped_key_names_the_message_list(tmp_path: Path):
    """``"mess\\u0061ges"`` alone is the message list, read as any JSON reader reads it."""
    source = tmp_path / "s.json"
    source.write_text('{"model": "m", "mess\\u0061ges": [' + R + ", " + B + "]}", encoding="utf-8")
    (result,) = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "pass"]


@pytest.mark.parametrize("flag", ['"is_error": "true"', '"is_error": 1', '"status": "cancelled"'])
def test_an_error_flag_that_says_neither_leaves_the_status_unknown(tmp_path: Path, flag: str):
    source = tmp_path / "s.json"
    source.write_text("[" + B + ', {"role": "tool", "tool_call_id": "b", "content": "boom", ' + flag + "}]",
                      encoding="utf-8")
    rules = 'eval 1\nexpect 1: no calls to "Bash" with status error\nexpect 2: count(calls) == 1\n'
    (result,) = referee.grade(rules, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "pass"]


def test_a_second_answer_to_a_call_leaves_its_status_and_return_unknown(tmp_path: Path):
    source = tmp_path / "s.json"
    source.write_text("[" + B + ', {"role": "tool", "tool_call_id": "b", "content": "ok"}, '
                      '{"role": "tool", "tool_call_id": "b", "content": "failed", "status": "error"}, '
                      '{"content": "done"}]', encoding="utf-8")
    rules = 'eval 1\nexpect 1: no calls to "Bash" with status error\nexpect 2: count(calls) == 1\n'
    (result,) = referee.grade(rules, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "pass"]
    (conversation,) = conversations("openai", [source])
    assert "message 4 has no role; skipped" in [problem.message for problem in conversation.problems]
    source.write_text("[" + B + ', {"role": "tool", "tool_call_id": "b", "content": "ok"}, '
                      '{"role": "tool", "tool_call_id": "b", "content": "ok"}]', encoding="utf-8")
    (result,) = referee.grade(rules, source, as_eval="1")  # the same answer again changes nothing
    assert [item["outcome"] for item in result.expectations] == ["pass", "pass"]


def test_a_reply_is_read_from_each_part_that_gives_its_text(tmp_path: Path):
    """A refusal part, and a text part whose text is given as {"value": ...}, are the
    reply's text: the response holds them."""
    source = tmp_path / "s.json"
    source.write_text('[{"role": "assistant", "content": "working on it"}, {"role": "assistant", "content": ['
                      '{"type": "refusal", "refusal": "I cannot help"}, {"type": "text", "text": {"value": '
                      '"after all"}}]}]', encoding="utf-8")
    rules = 'eval 1\nexpect 1: response contains "I cannot help"\nexpect 2: response contains "after all"\n'
    (result,) = referee.grade(rules, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["pass", "pass"]


def test_a_tool_answer_given_as_an_object_is_its_return_and_what_error_when_reads(tmp_path: Path):
    source = tmp_path / "s.json"
    source.write_text("[" + B + ', {"role": "tool", "tool_call_id": "b", "content": {"error": "Error: denied"}}]',
                      encoding="utf-8")
    rules = ('eval 1\nexpect 1: no calls to "Bash" with status error\n'
             'expect 2: first(calls to "Bash").return.error == "Error: denied"\n')
    (result,) = referee.grade(rules, source, as_eval="1", error_when="Error:")
    assert [item["outcome"] for item in result.expectations] == ["fail", "pass"]
