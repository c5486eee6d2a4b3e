"""Stability over repeated runs (SkillSentry): mean, spread, pass@k and pass^k.

Per eval and configuration, over the runs' gated pass rates: the mean (never
the best run), the spread (best minus worst), and the sample standard deviation.
A spread above 15 percentage points is unstable. Quick mode needs at least 2
runs per eval and configuration, standard mode 3.

A run "succeeds" when every assertion counted toward its gate passed. With n
runs of which c succeeded, for each k from 1 to n (at most ``MAX_K``):
pass@k = 1 - C(n-c, k) / C(n, k), the chance that at least one of k runs drawn
without replacement succeeds, and pass^k = C(c, k) / C(n, k), the chance that
all k do (the unbiased estimators used by HumanEval and tau-bench).
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from referee.dsl.frozen import frozen

MODES = {"quick": 2, "standard": 3}
UNSTABLE_SPREAD = 0.15
MAX_K = 5
DIGITS = 4


@frozen
class Stats:
    """mean, sample stddev, min and max of some numbers (skill-creator's four)."""

    mean: float
    stddev: float
    min: float
    max: float
    n: int

    def as_dict(self, digits: int = DIGITS) -> dict:
        return {"mean": round(self.mean, digits), "stddev": round(self.stddev, digits),
                "min": round(self.min, digits), "max": round(self.max, digits)}


def stats(values: Sequence[float]) -> Stats | None:
    """None for no values; the sum runs over the values sorted, so the result does
    not depend on their order."""
    if not values:
        return None
    ordered = sorted(values)
    n = len(ordered)
    mean = math.fsum(ordered) / n
    variance = math.fsum((v - mean) ** 2 for v in ordered) / (n - 1) if n > 1 else 0.0
    return Stats(mean, math.sqrt(variance), ordered[0], ordered[-1], n)


@frozen
class Stability:
    """One eval and configuration over its runs."""

    runs: int
    rates: Stats | None  # over runs with a gate
    successes: int
    required: int
    threshold: float = UNSTABLE_SPREAD

    @property
    def spread(self) -> float | None:
        return None if self.rates is None else self.rates.max - self.rates.min

    @property
    def unstable(self) -> bool:
        spread = self.spread
        return spread is not None and round(spread, DIGITS) > self.threshold

    @property
    def enough_runs(self) -> bool:
        return self.runs >= self.required

    def pass_at(self) -> dict[str, float]:
        return self._by_k(pass_at_k)

    def pass_hat(self) -> dict[str, float]:
        return self._by_k(pass_hat_k)

    def _by_k(self, chance: Callable[[int, int, int], float]) -> dict[str, float]:
        n = self.rates.n if self.rates else 0
        return {str(k): round(chance(n, self.successes, k), DIGITS) for k in range(1, min(n, MAX_K) + 1)}

    def as_dict(self) -> dict:
        spread = self.spread
        return {
            "runs": self.runs, "required_runs": self.required, "enough_runs": self.enough_runs,
            "pass_rate": self.rates.as_dict() if self.rates else None,
            "spread": None if spread is None else round(spread, DIGITS),
            "unstable": self.unstable, "successes": self.successes,
            "pass_at_k": self.pass_at(), "pass_hat_k": self.pass_hat(),
        }


def stability(rates: Sequence[float | None], mode: str, threshold: float = UNSTABLE_SPREAD) -> Stability:
    """Stability of one eval and configuration from its runs' gated pass rates
    (None for a run where nothing counted: it is a run, but has no rate)."""
    known = [r for r in rates if r is not None]
    successes = sum(1 for r in known if r >= 1.0)
    return Stability(len(rates), stats(known), successes, MODES[mode], threshold)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of k runs out of n (c successes) succeeds."""
    if k > n or k < 1:
        raise ValueError(f"k must be between 1 and n={n}, got {k}")
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Chance that all of k runs out of n (c successes) succeed."""
    if k > n or k < 1:
        raise ValueError(f"k must be between 1 and n={n}, got {k}")
    return math.comb(c, k) / math.comb(n, k)
