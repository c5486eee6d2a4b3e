"""``render``, ``equal`` and ``includes`` convert records and tuples level by level
(``plain_top``); they must give what they give on the whole value made plain first."""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import given, strategies as st

from referee.engine.checks.matching import includes
from referee.engine.run.model import Location, Note, Payload, ToolCall
from referee.engine.equality import equal
from referee.engine.value_text import _json_default
from referee.engine.values import as_decimal, canonical_number, is_number, plain, render

_CALL = ToolCall(index=0, step=1, title="t", tool="save", status="success", result=None,
                 args=Payload('{"a": [1, 2]}', {"a": [1, 2]}, True, 3),
                 location=Location("outputs/transcript.md", 1))
_NOTE = Note(index=1, step=2, title="n", text="did it", kind="agent_notes",
             location=Location("outputs/transcript.md", 8))
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                     st.sampled_from(["a", "A", "b", "</x>", ""]),
                     st.sampled_from([Decimal("1.0"), Decimal("1"), Decimal("NaN"), Decimal("2.50"), 1.5]),
                     st.just(_CALL), st.just(_NOTE))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.sampled_from(["a", "b", "tool"]), inner, max_size=3)), max_leaves=8)


def _render_whole(value):
    value = plain(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if is_number(value):
        return canonical_number(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_json_default)


def _equal_whole(a, b, ignore_case=False):
    a, b = plain(a), plain(b)
    if is_number(a) and is_number(b):
        return as_decimal(a) == as_decimal(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold() if ignore_case else a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal_whole(x, y, ignore_case) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal_whole(a[k], b[k], ignore_case) for k in a)
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return type(a) is type(b) and a == b
    return False


@given(_VALUES)
def test_render_is_the_json_of_the_plain_value(value):
    assert render(value) == _render_whole(value)


@given(_VALUES, _VALUES, st.booleans())
def test_equal_is_equality_of_the_plain_values(a, b, ignore_case):
    assert equal(a, b, ignore_case) == _equal_whole(a, b, ignore_case)
    assert equal(a, a) == _equal_whole(a, a)


@given(_VALUES, _VALUES)
def test_includes_reads_the_same_on_the_plain_values(actual, expected):
    assert includes(actual, expected) == includes(plain(actual), plain(expected))


def test_a_values_evidence_is_made_once_and_is_not_a_field():
    from referee.engine.values import Prov, Val

    val = Val("x", Prov("response", "response.md", "outputs/response.md", 2))
    first = val.evidence()
    assert first is val.evidence() and first.line == 2
    assert val == Val("x", Prov("response", "response.md", "outputs/response.md", 2))
    assert "_evidence" not in repr(val) and Val("x").evidence() is None
