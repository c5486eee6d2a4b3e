"""Selecting by status reads what each status word of a run says once per run and
word (``filters.said_by``), not once per call and selection: the picks must keep
what reading every call's word, filter by filter and element by element, keeps."""

from __future__ import annotations

from dataclasses import replace

from call_selections import outcome, run_of, selections
from hypothesis import given, strategies as st

from referee.engine.checks import filters
from referee.engine.checks.base import Context
from referee.engine.checks.filters import all_sure
from referee.engine.checks.run_sources import read_calls
from referee.engine.run import status_words

SELECTIONS = ('calls with status success', 'calls with status error', 'calls to "save" with status error',
              'calls with status success to glob "*ave"', 'calls with status error at step 2',
              'calls with status Failed', 'calls with status ok to "read"')
WORDS = ("success", "error", "Success", " failed ", "OK", "completed", "timeout", "no_result", "", None)
_CALLS = st.lists(st.tuples(st.sampled_from(["save", "read", None]), st.sampled_from(WORDS),
                            st.sampled_from([frozenset(), frozenset({"status"})])), max_size=10)


@given(_CALLS)
def test_picks_by_status_keep_what_each_calls_word_keeps(calls):
    run = run_of(calls)
    items = read_calls(Context(run, {}))
    every_word_read = not any(c.value.unsure or c.value.status is None or status_words.meaning(c.value.status) is None
                              for c in items)
    assert all_sure(Context(run, {}), items) == every_word_read
    for sel in selections(SELECTIONS):
        plain = replace(sel, picks=(), rest=None)  # every filter tried element by element
        fast, slow = Context(run, {}), Context(run, {})
        assert outcome(lambda: sel.items(fast)) == outcome(lambda: plain.items(slow)), sel.desc


def test_each_status_word_is_read_once_arun_of(monkeypatch):
    run = run_of([("save" if n % 3 else "read", "success" if n % 4 else "error", frozenset()) for n in range(60)])
    read: list[str] = []
    says = status_words.meaning

    def meaning(word: str):
        read.append(word)
        return says(word)

    monkeypatch.setattr(filters.status_words, "meaning", meaning)
    ctx = Context(run, {})
    kept = {sel.desc: len(sel.items(ctx)) for sel in selections(SELECTIONS)[:4]}
    assert kept == {'calls with status success': 45, 'calls with status error': 15,
                    'calls to "save" with status error': 10, 'calls with status success to glob "*ave"': 30}
    assert sorted(read) == ["error", "success"]
