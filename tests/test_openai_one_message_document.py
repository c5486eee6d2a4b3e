"""A source that is one message object: on one line it is JSON lines of one message,
a conversation of that message; pretty-printed over several lines it is the same
conversation, its keys cited on their lines, never "no message referee could read", and so
when it is larger than a document is decoded whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import openai_sources
from referee.engine.run.importers.jsondoc import WHOLE_LIMIT
from referee.engine.run.importers.source import read_source

MESSAGES = {
    "reply": {"role": "assistant", "content": "hi"},
    "call": {"role": "assistant", "content": None,
             "tool_calls": [{"id": "c1", "type": "function",
                             "function": {"name": "bash", "arguments": "{\"command\": \"rm -rf /tmp/x\"}"}}]},
    "prompt": {"role": "user", "content": "hi"},
}


def _read(tmp_path: Path, message: dict, indent: int | None):
    source = tmp_path / "m.json"
    source.write_text(json.dumps(message, indent=indent) + "\n", encoding="utf-8")
    conversation, = openai_sources.read_conversations(read_source(source))
    return conversation


@pytest.mark.parametrize("message", MESSAGES.values(), ids=MESSAGES.keys())
def test_a_pretty_printed_message_reads_as_the_same_message_on_one_line(tmp_path: Path, message: dict):
    one_line, pretty = _read(tmp_path, message, None), _read(tmp_path, message, 1)
    shown = lambda c: ([(type(e).__name__, getattr(e, "text", None), getattr(e, "args", None)) for e in c.entries],
                       [r.text for r in c.response], sorted(p.code for p in c.problems))  # noqa: E731
    assert shown(pretty) == shown(one_line)
    assert pretty.entries


def test_its_words_are_cited_on_their_line(tmp_path: Path):
    conversation = _read(tmp_path, MESSAGES["reply"], 1)
    assert conversation.response[0].origin.line == 3  # "content" is on the third line


def test_a_pretty_printed_call_is_graded(tmp_path: Path):
    source = tmp_path / "m.json"
    source.write_text(json.dumps(MESSAGES["call"], indent=2), encoding="utf-8")
    result, = referee.grade('eval 1\nexpect 1: no calls where .args.command contains "rm"\n', source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail"]


def test_a_pretty_printed_object_of_no_role_is_still_no_conversation(tmp_path: Path):
    source = tmp_path / "m.json"
    source.write_text(json.dumps({"role": "bot", "content": "hi"}, indent=1), encoding="utf-8")
    with pytest.raises(openai_sources.NoMessageList, match="no message list"):
        openai_sources.read_conversations(read_source(source))


def test_a_pretty_printed_message_over_the_whole_document_limit_is_read(tmp_path: Path):
    # past WHOLE_LIMIT a document is read by its message list: one message alone has none
    message = {"role": "assistant", "content": "done " + "x" * WHOLE_LIMIT}
    conversation = _read(tmp_path, message, 2)
    assert [r.text[:4] for r in conversation.response] == ["done"]
    assert conversation.response[0].origin.line == 3


def test_a_larger_object_of_no_message_says_why_it_is_not_read(tmp_path: Path):
    source = tmp_path / "config.json"
    source.write_text(json.dumps({"model": "gpt-4o", "notes": "x" * WHOLE_LIMIT}, indent=2), encoding="utf-8")
    with pytest.raises(openai_sources.NoMessageList, match=r"line 1 .* over 8 MiB a document is read whole only"):
        openai_sources.read_conversations(read_source(source))
