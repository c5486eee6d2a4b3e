"""The check that a reading takes a time linear in its text: ten times the text takes
about ten times as long, never a hundred. The tests time a reading by the CPU time of
their own process (``time.process_time``), the best of five at each size: a process
busy on the same core (another test worker, a loaded machine) adds nothing to it."""

from __future__ import annotations

import time
from typing import Callable

from referee.engine.checks import textparts
from referee.engine.values import EvalError, Prov, Val


def grows_linearly(seconds_for: Callable[[int], float]) -> None:
    """Assert that ``seconds_for(20000)`` (the time taken over 20,000 repeats of a unit)
    is under 30 times ``seconds_for(2000)``."""
    small = min(seconds_for(2000) for _ in range(5))
    large = min(seconds_for(20000) for _ in range(5))
    assert large < 30 * max(small, 1e-4), (small, large)


def code_seconds(text: str, prov: Prov) -> float:
    """The time ``code()`` takes over ``text`` read from ``prov`` (an ERROR it gives counts:
    a reading that gives up must give up in linear time too)."""
    began = time.process_time()
    try:
        textparts.code(Val(text, prov))
    except EvalError:
        pass
    return time.process_time() - began
