"""A value is decoded once, and what that decode says is what the decoder says.

``safejson.decoded`` calls the decoder's scanner once and gives the value, or the
error ``JSONDecoder.decode`` (the reference) raises on the same text; the
transcript's usual record takes a Return's message from that one decode instead of
decoding a text Return a second time.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.run import safejson
from referee.engine.run.transcript import parse_transcript

_CASES = [
    '{"a": 1}', '  [1, 2]  ', "[1, 2] x", "1  beta delta", "[ok] done", "", " ", "nul", '"a\nb"',
    '{"a": 1, "a": 2}', '{"a": 1, "a": 1}', "[" * 600 + "]" * 600, "[" * 600, "1e99999", "1" * 1200,
    "[1,]", '{"a": 1,}', "{'a': 1}", "[1] \n\t", "\n\n   1  region\n   2  ledger", "NaN", "-Infinity",
    '{"a": [1, {"b": 2.50}]}', "tru", "[1, 2", "]", '"\\ud800"', "01", "1.", "[1]]",
]


def _reference(text: str):
    """What ``_DECODER.decode`` gives: the value, or the error it raises (its type and words)."""
    try:
        value = safejson._DECODER.decode(text)
    except (ValueError, RecursionError) as exc:
        return _error(exc)
    return ("too deep",) if safejson._nested_too_deep(text, value) else ("value", value)


def _error(exc: BaseException):
    if isinstance(exc, json.JSONDecodeError):
        return ("error", type(exc), exc.msg, exc.pos, exc.lineno, exc.colno)
    return ("error", type(exc), str(exc))


def _found(text: str):
    found = safejson.decoded(text)
    if isinstance(found, tuple):
        return ("value", *found)
    return ("too deep",) if str(found) == "nested too deep" else _error(found)


def _same(a, b) -> bool:
    """Equal, and of the same types (``1`` is not ``1.0`` nor ``True``)."""
    return json.dumps(a, default=repr, sort_keys=True) == json.dumps(b, default=repr, sort_keys=True) and \
        repr(a) == repr(b)


def test_decoded_is_what_the_decoder_gives_on_seeded_cases():
    rng = random.Random(50)
    texts = list(_CASES)
    for _ in range(300):  # the cases cut, and joined with text around them
        text = rng.choice(_CASES)
        cut = rng.randrange(len(text) + 1)
        texts += [text[:cut], text[cut:], rng.choice([" ", "\n", "x", "{", "]"]) + text]
    for text in texts:
        assert _same(_found(text), _reference(text)), text


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(alphabet='{}[]",: \n\t0123456789.eE-+truefalsnNIiy\\ab', max_size=40),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                              lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                         max_size=3)
                              ).map(json.dumps)))
def test_decoded_is_what_the_decoder_gives(text):
    assert _same(_found(text), _reference(text))


def test_parse_json_says_what_it_said_through_the_decoder():
    for text in _CASES + ["   1  beta\n   2  gamma", "[ok] x\n[warn] y"]:
        result = safejson.parse_json(text, "r", 7, "not-json")
        reference = _reference(text)
        if reference[0] == "value" and text.strip():
            assert result.ok and _same(("value", result.value), reference)
        else:
            assert not result.ok and result.problem is not None


_RECORD = """## [tool_calls] Step 1: Read
Tool: Read
Args: {{"path": "a.txt"}}
Return:
{value}
Status: success
"""


def test_a_text_return_is_decoded_once(monkeypatch):
    """Each scan of the Return's text is counted, through every scanner a decode may use.
    Lines a tool printed that open with a bracket may be JSON: they were decoded to
    know, then again for the message."""
    value = "[ok] record saved\n[warn] ledger delta"
    scans: list[str] = []

    def counting(scan):
        def counted(text, start):
            scans.append(text)
            return scan(text, start)
        return counted

    monkeypatch.setattr(safejson, "_SHORT_INTS", counting(safejson._SHORT_INTS))
    monkeypatch.setattr(safejson, "_SCAN", counting(safejson._SCAN))
    monkeypatch.setattr(safejson._DECODER, "scan_once", counting(safejson._DECODER.scan_once))
    parsed = parse_transcript(_RECORD.format(value=value))
    (call,) = parsed.calls
    assert not call.result.is_json and call.result.text == value.strip()
    assert [p.code for p in parsed.problems] == ["not-json"]
    assert parsed.problems[0].message == "Return: value kept as text: invalid JSON: Expecting value (line 5, column 2)"
    assert parsed.problems[0].line == 5
    assert scans.count(value.strip()) == 1
