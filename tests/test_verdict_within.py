"""``Verdict.within(capped)``: what ``capped`` gives, without looking a verdict over
again once it was found within the caps."""

from __future__ import annotations

from referee.engine.caps import capped
from referee.engine.verdict import Evidence, Outcome, Verdict


def test_a_verdict_within_the_caps_is_itself_and_is_not_looked_over_again():
    seen = []

    def bound(verdict):
        seen.append(verdict)
        return capped(verdict)

    verdict = Verdict(Outcome.PASS, "ok", (Evidence("response", "outputs/response.md", 1, None, "x"),))
    assert verdict.within(bound) is verdict and verdict.within(bound) is verdict
    assert len(seen) == 1
    assert verdict == Verdict(Outcome.PASS, "ok", verdict.evidence) and "_within" not in repr(verdict)


def test_a_verdict_past_the_caps_is_bounded_each_time_as_capped_bounds_it():
    long = Verdict(Outcome.FAIL, "x" * 3000)
    once = long.within(capped)
    assert once == capped(long) and once is not long
    assert once.within(capped) == capped(capped(long))  # what a report made of it before
