"""``exact.dumps_told`` writes a value as ``json.dumps(value, ensure_ascii=False)`` does (the
reference), with one encoder made once rather than one made for each value; a Decimal
takes its own walk, which says so."""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from referee.engine.run.importers.exact import dumps_told

TEXT = st.one_of(st.text(max_size=6), st.sampled_from(["值", "\u2028", "\ud800", '"', "\\", "</script>"]))
PLAIN = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT),
                     lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
                     max_leaves=12)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(PLAIN)
def test_a_value_is_written_as_json_dumps_writes_it(value):
    assert dumps_told(value) == (json.dumps(value, ensure_ascii=False), True)


def test_a_decimal_is_written_by_its_own_walk():
    text, plain = dumps_told({"n": Decimal("1.50"), "s": "值"})
    assert (text, plain) == ('{"n": 1.50, "s": "值"}', False)
