"""A count bounded from above is made false by more calls than its bound allows,
not by one more call: "Read is called at most 3 times" still holds when a run's
one Read call is duplicated, and fails when it is called 4 times."""

from __future__ import annotations

import pytest

import critique_one
from critique_one import transcript

RUN = {"outputs/transcript.md": transcript(("Read", {"path": "a.md"}), ("Write", {"path": "b.md"})),
       "outputs/response.md": "Done.\n"}


def critique(check: str):
    return critique_one.critique(check, RUN)


@pytest.mark.parametrize("check, calls", [
    ('count(calls to "Read") <= 3', 4),
    ('count(calls to "Read") < 5', 5),
    ('count(calls to "Read") between 1 and 3', 4),
    ('count(calls to "Read") == 1', 2),
    ('exactly 1 calls to "Read"', 2),
    ('count(calls to "Read") <= 3 and count(calls to "Write") <= 1', 4),
])
def test_the_duplicate_goes_past_the_bound(check, calls):
    found = critique(check)
    (duplicate,) = [t for t in found.tried if t.mutant == "duplicate-call"]
    assert duplicate.must_fail and not duplicate.passed
    assert f"called {'twice' if calls == 2 else f'{calls} times'}" in duplicate.reason
    assert not found.weak, found.reasons()


def test_a_bound_too_large_to_reach_is_not_tested_by_a_duplicate():
    (duplicate,) = [t for t in critique('count(calls to "Read") <= 1000').tried if t.mutant == "duplicate-call"]
    assert not duplicate.must_fail
