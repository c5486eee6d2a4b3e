"""A message array decoded whole is the array the token walk finds, element for element.

``jsondoc.decoded_array`` is a shortcut: for a plain document it lets the JSON
decoder find where each message lies. The walk (``walked_array``) is the reference;
these tests hold the shortcut to it, on drawn documents and on every OpenAI-format
source the suite has, and check that anything other than a plain document is left
to the walk.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.run.importers import AUTO, each_conversation, jsondoc, jsondoc_whole
from referee.engine.run.importers.exact import loads
from referee.engine.run.importers.writer import render_run
from referee.engine.run.memory import memory_run

FIXTURES = Path(__file__).parent / "fixtures"
OPENAI_SOURCES = sorted([*(FIXTURES / "import" / "openai").glob("*.json*"),
                         *(FIXTURES / "real" / "openai").glob("*/*.json")])

# Text that looks like JSON's structure from inside a string: brackets, quotes,
# escapes, line ends, and characters of one to four UTF-8 bytes.
_TRICKY = st.text(alphabet=st.sampled_from(list('[]{}",:\\ \n\tab值😀')), max_size=12)
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                     st.floats(allow_nan=False, allow_infinity=False), _TRICKY)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_TRICKY, inner, max_size=4)), max_leaves=12)
_MESSAGES = st.lists(st.one_of(st.dictionaries(_TRICKY, _VALUES, max_size=5), _VALUES), max_size=8)


def _written(messages: list, indent: int | None, ascii_only: bool, lead: str) -> str:
    return lead + json.dumps(messages, indent=indent, ensure_ascii=ascii_only) + lead


def _same(data: bytes | str) -> None:
    fast, walked = jsondoc.decoded_array(data), jsondoc.walked_array(data)
    if walked is None or walked.another is not None:  # a second message array: the walk's to report
        assert fast is None
        return
    assert fast is not None and fast.another is None
    assert (fast.elements, fast.closed, fast.base, fast.span) == (walked.elements, walked.closed, walked.base,
                                                                  walked.span)
    assert fast.values is not None and len(fast.values) == len(fast.elements)
    for element, value in zip(fast.elements, fast.values):
        text = data[element.start:element.end]
        text = text.decode("utf-8") if isinstance(text, bytes) else text
        assert [value] == list(loads(text) or ())


_LAYOUT = (st.sampled_from([None, 0, 2]), st.booleans(), st.sampled_from(["", " ", "\n", "\r\n\t"]))


@settings(max_examples=300, deadline=None)
@given(_MESSAGES, *_LAYOUT)
def test_a_plain_document_decoded_whole_has_the_walks_elements_and_their_values(messages, indent, ascii_only, lead):
    text = _written(messages, indent, ascii_only, lead)
    _same(text.encode("utf-8"))  # a file's bytes: offsets in bytes
    _same(text)  # a line already decoded: offsets in characters


# Members around the messages, the messages under one key or another (a key written
# with an escape is that key, as to any JSON reader), and keys given twice.
_KEYS = st.sampled_from(["messages", "traj", "model", "messag\\u0065s"])
_MEMBERS = st.lists(st.tuples(st.one_of(_KEYS, _TRICKY), st.one_of(_VALUES, _MESSAGES)), max_size=4)


@settings(max_examples=150, deadline=None)
@given(_MEMBERS, _KEYS, _MESSAGES, _MEMBERS, *_LAYOUT)
def test_an_object_holding_the_messages_is_read_as_the_walk_reads_it(before, key, messages, after, indent,
                                                                       ascii_only, lead):
    members = [*before, (key, messages), *after]
    body = ", ".join(json.dumps(k, ensure_ascii=ascii_only).replace("\\\\u0065", "\\u0065") + ": "
                     + json.dumps(v, indent=indent, ensure_ascii=ascii_only) for k, v in members)
    text = lead + "{" + body + "}" + lead
    _same(text.encode("utf-8"))
    _same(text)


@pytest.mark.parametrize("data", [
    b'{"messages": [{"role": "user", "content": "hi"}], "x": 1 "y": 2}',  # no comma after it
    b'{"messages": [{"role": "user", "content": "hi"}], 3: 2}',  # a key that is no string
    b'[{"role": "user", "content": "hi"}',  # cut short
    b'[{"role": "user"}]\n[{"role": "user"}]',  # a second value: JSON lines
    b'[{"role": "user", "content": "\xff"}]',  # not UTF-8
    b'[{"n": ' + b"9" * 5000 + b"}]",  # an integer only the second decoder reads
    b"[" + b"[" * 600 + b"]" * 600 + b"]",  # deeper than the limit
    b'[{"a": 1} {"b": 2}]',  # no comma
], ids=["object", "object-key", "cut", "lines", "not-utf8", "long-integer", "deep", "no-comma"])
def test_anything_but_a_plain_document_is_left_to_the_walk(data: bytes):
    assert jsondoc.decoded_array(data) is None
    assert jsondoc.message_array(data) == jsondoc.walked_array(data)


def test_a_document_over_the_limit_is_walked(monkeypatch):
    data = b'[{"role": "user", "content": "hi"}]'
    monkeypatch.setattr(jsondoc_whole, "WHOLE_LIMIT", len(data) - 1)
    assert jsondoc.decoded_array(data) is None


@pytest.mark.parametrize("source", OPENAI_SOURCES, ids=lambda p: p.name)
def test_every_openai_source_imports_the_same_whether_decoded_whole_or_walked(source: Path, monkeypatch):
    def files() -> list[dict[str, str] | str]:  # each run's files, or the error of a conversation that gives none
        return [item if isinstance(item, str) else render_run(item[2]).files
                for item in each_conversation(AUTO, [source], None, None)]

    whole = files()
    monkeypatch.setattr(jsondoc_whole, "WHOLE_LIMIT", -1)
    assert whole and whole == files()


# An OpenAI request as it is logged: the messages, then the tools offered. The walk
# once took the tools' definitions (objects in an array of the messages' depth) and
# the strings of any later member for messages of the run.
_REQUEST = json.dumps({"model": "gpt-4o", "messages": [
    {"role": "user", "content": "List the files."},
    {"role": "assistant", "content": "There are none."}],
    "tools": [{"type": "function", "function": {"name": "Bash", "parameters": {}}}],
    "metadata": {"note": "text"}}).encode()


@pytest.mark.parametrize("limit", [jsondoc.WHOLE_LIMIT, -1], ids=["decoded-whole", "walked"])
def test_members_after_the_messages_are_no_messages(limit: int, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(jsondoc_whole, "WHOLE_LIMIT", limit)
    document = jsondoc.message_array(_REQUEST)
    assert document is not None and len(document.elements) == 2
    source = tmp_path / "request.json"
    source.write_bytes(_REQUEST)
    _, _, conversation = next(iter(each_conversation(AUTO, [source], None, None)))
    assert [p.code for p in conversation.problems] == []
    assert [note.text for note in conversation.response] == ["There are none."]


@pytest.mark.parametrize("limit", [jsondoc.WHOLE_LIMIT, -1], ids=["decoded-whole", "walked"])
def test_a_second_message_list_is_unread_evidence_never_absent(limit: int, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(jsondoc_whole, "WHOLE_LIMIT", limit)
    first = [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": "Done."}]
    second = [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "Bash", "arguments": '{"command": "rm -rf /"}'}}]}]
    source = tmp_path / "request.json"
    source.write_text('{"messages": ' + json.dumps(first) + ',\n "messages": ' + json.dumps(second) + "}")
    _, _, conversation = next(iter(each_conversation(AUTO, [source], None, None)))
    assert [(p.code, p.line) for p in conversation.problems if p.code == "calls-may-be-missing"] == [
        ("calls-may-be-missing", 2)]
    run = memory_run(render_run(conversation).files)
    (result,) = referee.grade('eval 1\nexpect: no calls to "Bash"\nexpect: count(calls) == 0\n', run)
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
