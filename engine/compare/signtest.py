"""The decision across evals: one vote per eval, an exact one-sided sign test.

Each eval votes once, for the side with more pair wins (wins minus losses over
all its pairs; zero is a tie vote), so an eval with many runs weighs no more than
one with few. Over the n non-tie votes, of which k went to the primary, the
one-sided p-value that the primary is better is P(X >= k) for X ~ Binomial(n, 1/2),
computed exactly with whole numbers; the same for the baseline. Below the
fewest non-tie votes that could ever reach ``alpha`` (5 at 0.05, since
0.5^4 = 0.0625), the result is "underpowered" whatever the votes say. Magnitudes
(how much better) are reported beside the votes and never decide.

An eval with runs whose grading.json cannot be read votes tie, yet its vote is
unknown: a side is found better only if it still is with every such eval voting
for the other side; otherwise the result is "cannot tell".
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from referee.dsl.frozen import frozen

ALPHA = Fraction(5, 100)
PRIMARY, BASELINE, NO_DIFFERENCE, UNDERPOWERED = "primary better", "baseline better", "no difference", "underpowered"
CANNOT_TELL = "cannot tell"


def vote(wins: int, losses: int) -> int:
    """+1 for the primary, -1 for the baseline, 0 for a tie."""
    return (wins > losses) - (wins < losses)


def tail(n: int, k: int) -> Fraction:
    """P(X >= k) for X ~ Binomial(n, 1/2), exactly."""
    return Fraction(sum(comb(n, i) for i in range(max(k, 0), n + 1)), 2 ** n)


def floor(alpha: Fraction = ALPHA) -> int:
    """The fewest non-tie votes whose most lopsided outcome reaches ``alpha``."""
    n = 0
    while Fraction(1, 2 ** n) > alpha:
        n += 1
    return n


@frozen
class SignTest:
    primary: int  # votes for the primary
    baseline: int
    ties: int
    alpha: Fraction = ALPHA
    unread: int = 0  # of the ties, evals with runs that cannot be read: their votes are unknown

    @property
    def non_tie(self) -> int:
        return self.primary + self.baseline

    @property
    def p_primary(self) -> Fraction:
        return tail(self.non_tie, self.primary)

    @property
    def p_baseline(self) -> Fraction:
        return tail(self.non_tie, self.baseline)

    @property
    def told(self) -> str:
        """The result with the unread evals' ties taken as ties."""
        if self.non_tie < floor(self.alpha):
            return UNDERPOWERED
        if self.p_primary <= self.alpha:
            return PRIMARY
        if self.p_baseline <= self.alpha:
            return BASELINE
        return NO_DIFFERENCE

    @property
    def against(self) -> SignTest | None:
        """The votes were every unread eval's a vote against the side found better
        (None when no side is, or no eval is unread)."""
        if not self.unread or self.told not in (PRIMARY, BASELINE):
            return None
        moved = (0, self.unread) if self.told == PRIMARY else (self.unread, 0)
        return SignTest(self.primary + moved[0], self.baseline + moved[1], self.ties - self.unread, self.alpha)

    @property
    def result(self) -> str:
        against = self.against
        if against is not None and against.told != self.told:
            return CANNOT_TELL  # the evals referee could not read may have undone it
        return self.told

    def as_dict(self) -> dict:
        found = {"votes": {"primary": self.primary, "baseline": self.baseline, "tie": self.ties},
                 "non_tie": self.non_tie, "min_non_tie": floor(self.alpha), "alpha": float(self.alpha),
                 "p_primary": _p(self.p_primary), "p_baseline": _p(self.p_baseline),
                 "p_primary_exact": _exact(self.p_primary), "p_baseline_exact": _exact(self.p_baseline),
                 "result": self.result}
        if self.unread:
            found["unread"] = self.unread
        return found

    def describe(self, primary: str, baseline: str) -> str:
        votes = (f"{self.primary} eval{'s' if self.primary != 1 else ''} for {primary}, {self.baseline} "
                 f"for {baseline}, {self.ties} tied")
        if self.unread:
            votes += f" ({self.unread} with runs that cannot be read)"
        if self.result == CANNOT_TELL:
            return self._cannot_tell(votes, primary, baseline)
        if self.result == UNDERPOWERED:
            return (f"{votes}; underpowered: {self.non_tie} non-tie eval{'s' if self.non_tie != 1 else ''}, "
                    f"at least {floor(self.alpha)} needed for a sign test at {float(self.alpha):g}")
        p = self.p_primary if self.result != BASELINE else self.p_baseline
        named = {PRIMARY: f"{primary} better", BASELINE: f"{baseline} better",
                 NO_DIFFERENCE: "no significant difference"}[self.result]
        return (f"{votes}; one-sided sign test p = {_p(p)} ({_exact(p)}) at {float(self.alpha):g}: "
                f"{named}")


    def _cannot_tell(self, votes: str, primary: str, baseline: str) -> str:
        better, other = (primary, baseline) if self.told == PRIMARY else (baseline, primary)
        p = self.p_primary if self.told == PRIMARY else self.p_baseline
        against = self.against
        assert against is not None  # a result of cannot tell has one
        q = against.p_primary if self.told == PRIMARY else against.p_baseline
        n = self.unread
        return (f"{votes}; cannot tell: one-sided sign test p = {_p(p)} ({_exact(p)}) at {float(self.alpha):g} "
                f"finds {better} better, but had the {n} eval{'s' if n != 1 else ''} whose runs cannot be read "
                f"voted for {other}, p = {_p(q)} ({_exact(q)})")


def _p(value: Fraction) -> float:
    return round(float(value), 6)


def _exact(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"
