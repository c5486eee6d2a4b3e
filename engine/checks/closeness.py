"""Which element of a selection came closest to passing a condition.

When no element passes a ``where`` or ``have``, the reader needs the field that
differed in the element that nearly matched, not in whichever came first. A
failed condition's message lists its failing parts joined by "; " (``and``
does so), so the element with the fewest parts failed the fewest comparisons;
for ``includes`` against an object, the keys that differ are counted. Ties keep
the selection's order.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

from referee.engine.checks.matching import includes
from referee.engine.verdict import Outcome, Verdict

T = TypeVar("T")


def misses(verdict: Verdict) -> int:
    """How many parts of the condition failed (0 for a pass)."""
    if verdict.outcome is Outcome.PASS:
        return 0
    expected, observed = verdict.expected, verdict.observed
    if isinstance(expected, dict) and isinstance(observed, dict) and expected:
        missing = object()
        return max(1, sum(1 for key, value in expected.items()
                          if includes(observed.get(key, missing), value) is not None))
    return max(1, sum(1 for part in verdict.message.split("; ") if part.strip()))


def closest_first(pairs: Sequence[tuple[T, Verdict]]) -> list[tuple[T, Verdict]]:
    """``pairs`` (element, its verdict), the closest to passing first; stable."""
    return sorted(pairs, key=lambda pair: misses(pair[1]))
