"""A JSONPath filter compares texts as the language's ``==`` and orderings do.

jsonpath-ng compared texts code point by code point as written: on a run whose args
hold "Mu" + U+0308 + "ller" (Müller written decomposed), ``[?(@.name == 'Müller')]``
selected nothing, so 'count(...) == 0' passed where ``==`` says the names are one.
The conformance cases (verdicts-compare.yaml, jsonpath-filter-*) show the verdicts;
here any two texts, written whole or decomposed, are compared both ways."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonpath_ng.ext import parse

from referee.engine.checks.compare import ordered
from referee.engine.checks.exprs import JsonPathGet
from referee.engine.checks.jsonpath_texts import in_text_form
from referee.engine.equality import equal
from referee.engine.values import EvalError, Val

# Letters that compose with a mark, the marks, a Hangul syllable and its jamo, and
# letters that fold (no filter ignores case: "ß" is not "ss" to it).
_PIECES = st.sampled_from(["u", "U", "ü", "\u0308", "\u0301", "e", "é", "\u0327", "c", "한", "\u1112",
                           "\u1161", "\u11ab", "ß", "s", "A", "Å", "\u212b", "\u030a"])
TEXTS = st.lists(_PIECES, max_size=5).map("".join)
FORMS = st.sampled_from(["NFC", "NFD", None])  # None: as drawn


def _written(text: str, form: str | None) -> str:
    return text if form is None else unicodedata.normalize(form, text)


class _Ctx:
    """A Context's part a jsonpath over a constant reads: none."""


def _selected(op: str, left: str, right: str) -> bool:
    query_text = f"$.items[?(@.a {op} $.b)]"
    base = _Const(Val({"items": [{"a": left}], "b": right}))
    return bool(JsonPathGet(base, _QUERIES.setdefault(op, parse(query_text)), query_text).eval(_Ctx()).value)


class _Const:
    def __init__(self, val: Val):
        self.val = val

    def eval(self, ctx) -> Val:
        return self.val


_QUERIES: dict[str, object] = {}


@settings(max_examples=150)
@given(TEXTS, TEXTS, FORMS, FORMS)
def test_a_filter_compares_texts_as_the_language_does(a: str, b: str, form_a, form_b):
    left, right = _written(a, form_a), _written(b, form_b)
    assert _selected("==", left, right) == equal(left, right)
    assert _selected("!=", left, right) == (not equal(left, right))
    for op in ("<", "<=", ">", ">="):
        assert _selected(op, left, right) == ordered(left, right, op, ""), op


@settings(max_examples=60)
@given(TEXTS, FORMS)
def test_a_text_is_one_however_it_is_written(text: str, form):
    written = _written(text, form)
    assert _selected("==", written, unicodedata.normalize("NFD", text))
    assert _selected("==", unicodedata.normalize("NFC", text), written)


def test_what_a_filter_selects_keeps_the_text_as_written():
    base = _Const(Val({"items": [{"a": "Mu\u0308ller"}]}))
    query_text = "$.items[?(@.a == 'Müller')].a"
    found = JsonPathGet(base, parse(query_text), query_text).eval(_Ctx())
    assert found.value == ["Mu\u0308ller"]


def test_texts_inside_and_keys_are_put_in_nfc():
    value = {"Mu\u0308": ["e\u0301", 1, None], "x": "plain"}
    assert in_text_form(value) == {"Mü": ["é", 1, None], "x": "plain"}
    already = {"x": ["plain", 2]}
    assert in_text_form(already) is already  # nothing to put in NFC: not copied
    with pytest.raises(EvalError, match="two keys equal in NFC"):  # which one a filter compares is undecided
        in_text_form({"Müller": 1, "Mu\u0308ller": 2})


# Names whose order as written is not their order in NFC ("Mu" + U+0308 is before "Mz").
NAMES = st.one_of(st.sampled_from(["Müller", "Mz", "Ma", "é", "f", "Å", "B"]), TEXTS)


@settings(max_examples=60)
@given(st.lists(st.tuples(NAMES, FORMS), max_size=6))
def test_a_sort_orders_texts_as_the_language_does(drawn):
    written = [_written(text, form) for text, form in drawn]
    query_text = "$.items[/a][*].a"
    base = _Const(Val({"items": [{"a": text} for text in written]}))
    found = JsonPathGet(base, _QUERIES.setdefault("sort", parse(query_text)), query_text).eval(_Ctx()).value
    assert found == sorted(written, key=lambda text: unicodedata.normalize("NFC", text))


@settings(max_examples=60)
@given(st.lists(st.tuples(NAMES, FORMS), max_size=6))
def test_sorted_orders_texts_as_the_language_does(drawn):
    written = [_written(text, form) for text, form in drawn]
    query_text = "$.items.`sorted`"
    base = _Const(Val({"items": written}))
    (found,) = JsonPathGet(base, _QUERIES.setdefault("sorted", parse(query_text)), query_text).eval(_Ctx()).value
    assert [unicodedata.normalize("NFC", text) for text in found] == sorted(unicodedata.normalize("NFC", text)
                                                                           for text in written)
    assert sorted(found) == sorted(written)  # the texts as written
