"""Counted work for each assertion, and a wall-clock safety net that decides no verdict.

**The budget decides verdicts, and counts work.** Evaluating one assertion may
not take more than ``Limits.steps`` units of work: an element examined, a
JSONPath node visited or matched, a pair of list items compared. Past it the
assertion stops with an ERROR verdict that names the budget; the other
assertions of the run are still graded. The same run and rules exhaust it at
the same place on any machine, under any load. Work that steps do not count is
bounded by sizes instead: files are read up to a size cap, and a regex runs in
time linear in its text or, on the backtracking engine, on a text of bounded
length (``engine.regexes``).

**The safety net stops a command, and writes nothing.** ``wall_net(what)``
gives the code inside ``time_limit()`` seconds of wall time; the clock is read
every so many steps, and a backtracking regex match gets what is left as its
timeout. Past it, ``TooSlow`` ends the whole command (exit 2) naming ``what``:
the machine was too slow for that run. It is never caught into a verdict, so a
loaded machine may stop a grade, never change one.

``budget.active(limits)`` opens a budget for the code inside it; ``spend(n)``
charges it. Outside any budget ``spend`` does nothing, so library callers that
evaluate without one pay nothing.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from referee.dsl.frozen import frozen
from referee.engine.usage import UsageError

DEFAULT_STEPS = 1_000_000
DEFAULT_RESULTS = 100_000  # values one JSONPath query may select
# Far above what any run takes on a loaded machine: the net is for a stalled
# grade, not a slow one. ``REFEREE_TIME_LIMIT`` sets it; 0 turns it off.
DEFAULT_TIME_LIMIT = 600.0
TIME_LIMIT_VARIABLE = "REFEREE_TIME_LIMIT"
# Reading the clock on every step would cost more than most steps: look every so often.
_CLOCK_EVERY = 512


@frozen
class Limits:
    """How much one assertion may spend: units of work, and values one JSONPath
    query may select."""

    steps: int = DEFAULT_STEPS
    results: int = DEFAULT_RESULTS


class BudgetExceeded(Exception):
    """An assertion ran out of its budget; ``str(error)`` is the verdict's message.

    Deliberately not an ``EvalError``: a check must not turn it into one element's
    ERROR and carry on with the next element; it ends the whole assertion.
    """


class TooSlow(UsageError):
    """The wall-clock safety net ran out: the command stops (exit 2), no verdict is
    made of it. Every ``except`` that turns errors into verdicts lets it through."""


class Budget:
    """The spending of one assertion against its ``Limits``."""

    __slots__ = ("limits", "steps", "_next_clock")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.steps = 0
        self._next_clock = _CLOCK_EVERY

    def spend(self, steps: int, what: str) -> None:
        self.steps += steps
        if self.steps > self.limits.steps:
            raise BudgetExceeded(f"stopped: this assertion exceeded its budget of "
                                 f"{self.limits.steps:,} steps of work ({what})")
        if self.steps >= self._next_clock:
            self._next_clock = self.steps + _CLOCK_EVERY
            check_net()


_CURRENT: ContextVar[Budget | None] = ContextVar("referee_budget", default=None)


class active:  # lower case, as contextlib.suppress: a context manager used as a function
    """A fresh budget for the code inside the ``with`` (``as`` gives the budget).

    A class, not a generator: every assertion of every run opens one, and a
    generator's context manager costs several calls more on each way in and out."""

    __slots__ = ("_budget", "_token")

    def __init__(self, limits: Limits) -> None:
        self._budget = Budget(limits)

    def __enter__(self) -> Budget:
        self._token = _CURRENT.set(self._budget)
        return self._budget

    def __exit__(self, *exc: object) -> None:
        _CURRENT.reset(self._token)


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


# ------------------------------------------------------------------ the safety net


@frozen
class _Net:
    deadline: float
    seconds: float
    what: str


_NET: ContextVar[_Net | None] = ContextVar("referee_net", default=None)


@contextmanager
def wall_net(what: str, seconds: float | None = None) -> Iterator[None]:
    """``seconds`` (default ``time_limit()``) of wall time for the code inside; past
    them the next look at the clock raises ``TooSlow`` naming ``what`` (a run)."""
    seconds = time_limit() if seconds is None else seconds
    if seconds <= 0:
        yield
        return
    token = _NET.set(_Net(time.monotonic() + seconds, seconds, what))
    try:
        yield
    finally:
        _NET.reset(token)


def net_left() -> float | None:
    """Seconds left in the safety net, for a call that takes a timeout; None: no net."""
    net = _NET.get()
    return None if net is None else max(net.deadline - time.monotonic(), 0.0)


def check_net() -> None:
    """Raise ``TooSlow`` when the safety net has run out."""
    net = _NET.get()
    if net is not None and time.monotonic() > net.deadline:
        raise too_slow()


def too_slow() -> TooSlow:
    """The error that stops the command once the net has run out."""
    net = _NET.get()
    what, seconds = (net.what, net.seconds) if net is not None else ("the work", 0.0)
    return TooSlow(f"the machine was too slow: {what} took more than {seconds:g} s of wall time, "
                   f"the safety net ({TIME_LIMIT_VARIABLE}); stopped before writing anything. "
                   "No verdict depends on time: grade again on a less loaded machine, or set "
                   f"{TIME_LIMIT_VARIABLE} higher (0: no limit)")


def time_limit() -> float:
    """The safety net's seconds per run: ``REFEREE_TIME_LIMIT``, else the default."""
    text = os.environ.get(TIME_LIMIT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_TIME_LIMIT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0 or seconds == float("inf"):
        raise UsageError(f"{TIME_LIMIT_VARIABLE}={text!r}: give a number of seconds (0: no limit)")
    return seconds
