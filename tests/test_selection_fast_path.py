"""A selection of calls picks with its leading filters over the whole list when no
call is unsure of a field; it must keep what trying every filter element by
element keeps, and raise the same ERROR when a call is unsure of a field. An
empty selection is explained by the verdicts its last 'where' gave while
selecting: the same explanation as judging the elements again."""

from __future__ import annotations

from dataclasses import replace

from call_selections import outcome, run_of, selections
from hypothesis import given, strategies as st

from referee.engine.checks.base import Context
from referee.engine.checks.run_sources import read_calls

SELECTIONS = ('calls to "save"', 'calls to glob "*ave"', 'calls with status success',
              'calls to glob "s*" with status error', 'calls with status success to "read"',
              'calls at step 2', 'calls to "save" where .args.a == 1',
              'calls where .args.a == 1 to "save"', 'calls to /s.v/ with status success',
              'calls to glob "*" at step 3 with status success', 'calls where .tool == "save"',
              'calls with status success where .step > 2')

_CALLS = st.lists(st.tuples(st.sampled_from(["save", "read", "xsave", None]),
                            st.sampled_from(["success", "error", None]),
                            st.sampled_from([frozenset(), frozenset({"tool"}), frozenset({"status"}),
                                             frozenset({"tool", "status"})])),
                  max_size=8)


@given(_CALLS)
def test_a_selection_keeps_what_its_filters_keep_element_by_element(calls):
    run = run_of(calls)
    for sel in selections(SELECTIONS):
        plain = replace(sel, picks=(), rest=None)  # every filter tried element by element
        fast, slow = Context(run, {}), Context(run, {})
        items = read_calls(slow)
        defined = outcome(lambda: tuple(i for i in items if sel.keep is None or sel.keep(slow, i)))
        assert outcome(lambda: sel.items(fast)) == defined == outcome(lambda: plain.items(slow)), sel.desc
        if defined[0] == "kept" and not defined[1]:
            assert sel.why_empty(fast) == plain.why_empty(slow), sel.desc
            judged_again = Context(run, {})  # a last 'where' judged again, not as it judged while selecting
            sel.items(judged_again)
            judged_again.cache.pop((sel.filters[-1], "tried"), None)
            assert sel.why_empty(judged_again) == sel.why_empty(fast), sel.desc


def test_a_call_unsure_of_its_tool_is_an_error_not_a_miss():
    run = run_of([("save", "success", frozenset()), (None, "success", frozenset({"tool"}))])
    (sel,) = [s for s in selections(SELECTIONS) if s.desc == 'calls to "save"']
    kind, message = outcome(lambda: sel.items(Context(run, {})))
    assert kind == "error" and "cannot give its tool for certain" in message
