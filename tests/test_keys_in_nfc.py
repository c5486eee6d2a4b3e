"""A field named in the rules is the key equal to it in NFC.

On args ``{"Mu\\u0308ller": 1}`` (a key written decomposed) ``args["Müller"]`` had no
field while ``"Müller" in keys(args)`` held, so 'no calls where .args["Müller"] == 1'
passed. The conformance cases (verdicts-compare.yaml, field-*, object-*, jsonpath-field-*)
show the verdicts; here a lookup on any object, keys written whole or decomposed, is
checked against a lookup on the object with its keys put in NFC: the same value, no
field, or (two keys equal in NFC with different values) an ERROR. An object written in
the rules naming a key in two spellings equal in NFC is refused (duplicate-key), and a
JSONPath name beyond ASCII, which jsonpath-ng refuses bare, is offered in brackets."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonpath_ng.ext import parse

from referee import dsl
from referee.engine.checks.access import get
from referee.engine.checks.exprs import JsonPathGet
from referee.engine.checks.jsonpath_names import bracketed
from referee.engine.equality import equal
from referee.engine.values import EvalError, Missing, Val

# Letters that compose with a mark, the marks, a Hangul syllable and its jamo, and the
# Kelvin and Ångström signs, whose NFC is "K" and "Å".
_PIECES = st.sampled_from(["u", "ü", "\u0308", "e", "é", "\u0301", "K", "\u212a", "Å", "\u212b",
                           "A", "\u030a", "한", "\u1112", "\u1161", "\u11ab"])
KEYS = st.lists(_PIECES, min_size=1, max_size=3).map("".join)
OBJECTS = st.dictionaries(KEYS, st.integers(0, 2), max_size=4)


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _expected(obj: dict, name: str) -> int | None | type[EvalError]:
    """What ``obj[name]`` is on ``obj`` with its keys put in NFC."""
    values = {value for key, value in obj.items() if _nfc(key) == _nfc(name)}
    if len(values) > 1:
        return EvalError
    return values.pop() if values else None


def _looked_up(obj: dict, name: str) -> int | None | type[EvalError]:
    try:
        found = get(Val(obj, None), name)
    except EvalError:
        return EvalError
    return None if isinstance(found, Missing) else found.value


class _Ctx:
    """A Context's part a jsonpath over a constant reads: none."""


class _Const:
    def __init__(self, val: Val):
        self.val = val

    def eval(self, ctx) -> Val:
        return self.val


def _selected(obj: dict, name: str) -> int | None | type[EvalError]:
    query_text = "$[%r]" % name
    try:
        found = JsonPathGet(_Const(Val(obj, None)), parse(query_text), query_text).eval(_Ctx()).value
    except EvalError:
        return EvalError
    return found[0] if found else None


@settings(max_examples=200)
@given(OBJECTS, st.data(), st.sampled_from(["NFC", "NFD", None]))
def test_a_field_is_the_key_equal_to_it_in_nfc(obj: dict, data, form):
    # a key of the object as often as not: a name drawn alone seldom meets one
    name = data.draw(st.sampled_from(sorted(obj)) if obj and data.draw(st.booleans()) else KEYS)
    name = name if form is None else unicodedata.normalize(form, name)
    assert _looked_up(obj, name) == _expected(obj, name)
    assert _selected(obj, name) == _expected(obj, name)


@settings(max_examples=150)
@given(OBJECTS, OBJECTS)
def test_objects_are_equal_as_their_keys_in_nfc_are(a: dict, b: dict):
    undecided = object()  # the value of a key held twice in NFC with different values

    def in_nfc(obj: dict) -> dict:
        made: dict = {}
        for key, value in obj.items():
            if made.setdefault(_nfc(key), value) != value:
                made[_nfc(key)] = undecided
        return made

    a_nfc, b_nfc = in_nfc(a), in_nfc(b)
    differ = a_nfc.keys() != b_nfc.keys() or any(
        a_nfc[k] != b_nfc[k] for k in a_nfc if undecided not in (a_nfc[k], b_nfc[k]))
    if differ or undecided not in [*a_nfc.values(), *b_nfc.values()]:
        assert equal(a, b) == (not differ)
    else:
        with pytest.raises(EvalError):
            equal(a, b)


def test_an_error_names_both_keys():
    with pytest.raises(EvalError, match=r'"Müller" \(in NFC\) and "Mu\\u0308ller" \(not in NFC\)'):
        get(Val({"Müller": 1, "Mu\u0308ller": 2}, None), "Müller")


@settings(max_examples=100)
@given(KEYS.filter(lambda name: not name.isascii()), st.sampled_from([
    ("$.{}", "$[{}]"), ("$.a.{}", "$.a[{}]"), ("$..{}", "$..[{}]"), ("$.b[?(@.{} == 1)]", "$.b[?(@[{}] == 1)]")]))
def test_the_hinted_bracket_form_reads_the_name(name: str, forms: tuple):
    # jsonpath-ng refuses a bare name beyond ASCII; bad-jsonpath's hint writes it so that
    # the query reads and selects what the query written with the name quoted selects
    bare, quoted = forms
    data = {name: 1, "a": {name: 2}, "b": [{name: 1}, {name: 3}]}
    written = bracketed(bare.format(name), parse)
    assert written is not None
    assert [m.value for m in parse(written).find(data)] == \
        [m.value for m in parse(quoted.format(repr(name))).find(data)]


@settings(max_examples=100)
@given(KEYS, KEYS)
def test_an_object_literal_names_a_key_once_in_nfc(first: str, second: str):
    text = f"eval 1\nexpect 1: first(calls).args == {{{json.dumps(first)}: 1, {json.dumps(second)}: 2}}\n"
    try:
        dsl.parse_rules(text, "case.rules")
        codes = []
    except dsl.RulesError as err:
        codes = [d.code for d in err.diagnostics]
    assert codes == (["duplicate-key"] if _nfc(first) == _nfc(second) else [])
