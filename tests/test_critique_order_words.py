"""Whether an assertion claims an order is read off its syntax (``before``, ``in
order``), never off its words: "before" inside a quoted text claims no order, and
swapping two calls must not fail such an assertion."""

from __future__ import annotations

import critique_one
from critique_one import transcript

RUN = {"outputs/transcript.md": transcript(("Read", {"note": "read it before editing, in order"}),
                                            ("Write", {"path": "b.md"})),
       "outputs/response.md": "Done.\n"}


def critique(check: str, lets: str = ""):
    return critique_one.critique(check, RUN, lets)


def swap(result) -> list[bool]:
    return [t.must_fail for t in result.tried if t.mutant == "swap-calls"]


def test_a_quoted_before_claims_no_order():
    found = critique('any calls to "Read" have .args.note contains "before editing"')
    assert swap(found) == [False] and not found.weak, found.reasons()
    assert swap(critique('any calls to "Read" have .args.note contains "in order"')) == [False]


def test_an_order_the_rule_states_is_still_tested_by_a_swap():
    assert swap(critique('any calls to "Read" before calls to "Write"')) == [True]
    assert swap(critique('in order [calls to "Read", calls to "Write"]')) == [True]
    assert swap(critique("first_read", 'let first_read = calls to "Read" before calls to "Write"\n')) == [True]
