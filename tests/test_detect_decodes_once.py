"""A source that is one message array on one line is decoded once, not once to be told
and again to be read.

Detection reads the first line of a source as JSON; for a one-line array that line is
the whole document, which reading then decodes element by element. Detection takes
the array as reading decodes it, element by element (``Source.array``) instead:
these tests hold that shortcut to the first line read as JSON (``json_container``),
the reference, on drawn arrays (numbers and ``null`` among the elements, which
reading takes for no message) and at the depth limit, and check the document is not
decoded whole any more.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.run.importers import AUTO, detect_text, each_conversation, exact
from referee.engine.run.importers.source import Source, json_container
from referee.engine.run.safejson import MAX_JSON_DEPTH

_TEXT = st.text(alphabet=st.sampled_from(list('[]{}",:\\ \tab值😀')), max_size=8)
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                     st.floats(allow_nan=False, allow_infinity=False), _TEXT)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_TEXT, inner, max_size=3)), max_leaves=8)
_MESSAGE = st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "tool", "other"]),
                                  "content": _VALUES})
_ELEMENTS = st.lists(st.one_of(_MESSAGE, _VALUES), max_size=7)


def _reference(data: bytes) -> tuple | None:
    """What detection read before: the first line that is not blank, as JSON."""
    text = data.decode("utf-8", errors="replace")
    first = next((line for line in text.split("\n") if line.strip()), "")
    return json_container(first)


def _as_decoded(data: bytes) -> tuple | None:
    """The same value, from the elements reading decodes (None where they give none)."""
    array = Source("run.json", data).array
    return None if array is None or array.whole is None else (array.whole,)


@settings(max_examples=300, deadline=None)
@given(_ELEMENTS, st.booleans(), st.sampled_from(["", " ", "\n", "\r\n\t "]))
def test_the_elements_reading_decodes_are_the_line_read_whole(elements, ascii_only, lead):
    data = (lead + json.dumps(elements, ensure_ascii=ascii_only) + lead).encode("utf-8")
    shortcut = _as_decoded(data)
    assert shortcut is not None  # a plain array on one line: decoded element by element
    assert shortcut == _reference(data)


@settings(max_examples=100, deadline=None)
@given(_ELEMENTS, st.sampled_from(["", " ", "\n", "\n\n  "]))
def test_a_source_is_told_the_same_with_or_without_the_shortcut(elements, lead):
    data = (lead + json.dumps(elements) + lead).encode("utf-8")
    told = detect_text(Source("run.json", data))
    plain = Source("run.json", data)
    plain.array = None  # as if never decoded whole: detection reads the line itself
    assert told == detect_text(plain)


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH - 2, MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH])
def test_at_the_depth_limit_the_array_is_read_as_its_line_is(depth: int):
    message = '{"role": "user", "content": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"
    data = ("[" + message + "]").encode()
    told = detect_text(Source("run.json", data))
    plain = Source("run.json", data)
    plain.array = None
    assert told == detect_text(plain)


def test_a_one_line_message_list_is_not_decoded_whole(monkeypatch, tmp_path):
    messages = [{"role": "user", "content": "Save rec-7."},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "save", "arguments": "{\"id\": 7}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "{\"ok\": true}"},
                {"role": "assistant", "content": "Saved."}]
    path = tmp_path / "run.json"
    text = json.dumps(messages)
    path.write_text(text)
    whole: list[int] = []
    decode = exact._DECODER.raw_decode

    def counted(s: str, idx: int = 0):
        if len(s) == len(text) and s[idx:idx + 1] == "[":
            whole.append(idx)
        return decode(s, idx)

    monkeypatch.setattr(exact._DECODER, "raw_decode", counted)
    found = list(each_conversation(AUTO, [path]))
    assert len(found) == 1 and not isinstance(found[0], str)
    assert len(found[0][2].calls) == 1
    assert whole == []
