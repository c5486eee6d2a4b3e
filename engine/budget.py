"""A time and work budget for each assertion, so no run can stall the grader.

Evaluating one assertion may not take more than ``Limits.seconds`` of wall time,
more than ``Limits.steps`` units of work (an element examined, a JSONPath node
visited or matched, a pair of list items compared), nor more than the regex time
its patterns were compiled with (``--regex-timeout``), summed over every match
the assertion runs. Past any of them the assertion stops with an ERROR verdict
that names the budget; the other assertions of the run are still graded.

The step budget is deterministic: the same run and rules exhaust it at the same
place on any machine. The time budgets are a safety net for the work steps do
not count (one regex match, one large comparison); only a hostile or broken run
comes near them.

``budget.active(limits)`` opens a budget for the code inside it; ``spend(n)``
charges it. Outside any budget ``spend`` does nothing, so library callers that
evaluate without one pay nothing.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterator

# Wide enough for the first assertion of a run to also read its largest transcript
# (files are capped at 32 MiB), which happens lazily, inside that assertion.
DEFAULT_SECONDS = 30.0
DEFAULT_STEPS = 1_000_000
# Reading the clock on every step would cost more than most steps: look every so often.
_CLOCK_EVERY = 512


@dataclass(frozen=True)
class Limits:
    """How much one assertion may spend: wall seconds and work steps."""

    seconds: float = DEFAULT_SECONDS
    steps: int = DEFAULT_STEPS


class BudgetExceeded(Exception):
    """An assertion ran out of its budget; ``str(error)`` is the verdict's message.

    Deliberately not an ``EvalError``: a check must not turn it into one element's
    ERROR and carry on with the next element; it ends the whole assertion.
    """


class Budget:
    """The spending of one assertion against its ``Limits``."""

    __slots__ = ("limits", "steps", "regex_seconds", "_deadline", "_next_clock")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.steps = 0
        self.regex_seconds = 0.0
        self._deadline = time.monotonic() + limits.seconds
        self._next_clock = _CLOCK_EVERY

    def spend(self, steps: int, what: str) -> None:
        self.steps += steps
        if self.steps > self.limits.steps:
            raise BudgetExceeded(f"stopped: this assertion exceeded its budget of "
                                 f"{self.limits.steps:,} steps of work ({what})")
        if self.steps >= self._next_clock:
            self._next_clock = self.steps + _CLOCK_EVERY
            self.check_clock(what)

    def check_clock(self, what: str) -> None:
        if time.monotonic() > self._deadline:
            raise BudgetExceeded(f"stopped: this assertion exceeded its budget of "
                                 f"{self.limits.seconds:g} seconds ({what})")

    def seconds_left(self) -> float:
        return self._deadline - time.monotonic()


_CURRENT: ContextVar[Budget | None] = ContextVar("referee_budget", default=None)


@contextmanager
def active(limits: Limits) -> Iterator[Budget]:
    """A fresh budget for the code inside the ``with``."""
    budget = Budget(limits)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def current() -> Budget | None:
    """The budget of the assertion being evaluated, if any."""
    return _CURRENT.get()


def spend(steps: int = 1, what: str = "evaluating") -> None:
    """Charge ``steps`` units of work; raises ``BudgetExceeded`` past the limit.

    ``what`` names the work in the message ("examining 100,000 calls").
    """
    budget = _CURRENT.get()
    if budget is not None:
        budget.spend(steps, what)
