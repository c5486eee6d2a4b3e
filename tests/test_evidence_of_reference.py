"""``evidence_of`` gathers the evidence of the values a check looked at in one loop;
the comprehension it replaced is kept here as the reference, and the two must give
the same places in the same order, repeats left out, for any values: literals
(no place), values read from no file, counts citing what they counted, and the same
place cited twice, by one value or by two."""

from __future__ import annotations

from hypothesis import given, strategies as st

from referee.engine.checks.base import evidence_of
from referee.engine.values import Missing, Prov, Val


def reference(*values):
    out = []
    for value in values:
        if not isinstance(value, Val):
            continue
        cited = [s.evidence() for s in value.support] if value.support else [value.evidence()]
        out.extend(e for e in cited if e is not None)
    return tuple(dict.fromkeys(out))


_PROVS = st.one_of(st.none(), st.builds(Prov, st.sampled_from(["tool_calls", "response", "agent_notes"]),
                                        st.sampled_from(["a", "b"]), st.sampled_from([None, "", "outputs/t.md"]),
                                        st.sampled_from([None, 1, 2]), st.sampled_from([None, 3])))
_PLAIN = st.builds(Val, st.sampled_from(["x", 1, None, [1], {"k": "v"}]), _PROVS)


def _with_support(items):
    return st.builds(lambda value, prov, support: Val(value, prov, support=tuple(support)),
                     st.integers(0, 3), _PROVS, st.lists(items, max_size=4))


_VALUES = st.one_of(_PLAIN, _with_support(_PLAIN), st.builds(Missing, st.just("gone"), _PROVS))


@given(st.lists(_VALUES, max_size=5), st.data())
def test_evidence_of_gives_what_the_reference_gives(values, data):
    if values and data.draw(st.booleans()):
        values.append(data.draw(st.sampled_from(values)))  # the same value cited twice
    assert evidence_of(*values) == reference(*values)
