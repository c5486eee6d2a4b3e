"""The contract between the comparison and a model that reads free text (``--llm``).

A model adds what no rule can say: how the delivered text reads, its strengths
and weaknesses in words, and scores for criteria no rule decided. It is asked
about each pair twice, once in each order; ``reconcile`` keeps only what both
orders agree on, so a position flip is a tie. This module imports nothing of
``llm_adapter``: the comparison runs without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from referee.dsl.frozen import frozen

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run


@frozen
class Point:
    """A strength or weakness, with the quote that was found in the output it is about."""

    text: str
    quote: str
    file: str
    line: int


@dataclass(frozen=True)
class Reading:
    """One answer, in one order: index 0 is the output shown first (as A)."""

    preference: int | None = None  # 0, 1, or None for a tie
    criteria: dict[str, tuple[int, int]] = field(default_factory=dict)
    strengths: tuple[tuple[Point, ...], tuple[Point, ...]] = ((), ())
    weaknesses: tuple[tuple[Point, ...], tuple[Point, ...]] = ((), ())
    rejected: tuple[str, ...] = ()  # points dropped: their quote is not in the output
    reasoning: str = ""
    error: str | None = None  # the answer could not be used
    usage: dict[str, float] = field(default_factory=dict)


class Holistic(Protocol):
    """Reads two outputs for one task; never raises for a bad answer (``Reading.error``)."""

    @property
    def name(self) -> str: ...

    def usage(self) -> dict:
        """What the readings cost so far: requests, tokens, whether replayed."""

    def read(self, task: str, first: Run, second: Run, criteria: Sequence[str],
             scrub: Callable[[str], str]) -> Reading: ...


@frozen
class Judgement:
    """What both orders agree on, with index 0 the pair's A."""

    preferred: int | None  # the side both orders preferred; None when they disagree or tie
    flipped: bool  # the two orders disagreed about the preference
    criteria: dict[str, tuple[int, int]]  # the criteria both orders scored the same
    unsettled: tuple[str, ...]  # criteria the two orders scored differently
    strengths: tuple[tuple[Point, ...], tuple[Point, ...]]
    weaknesses: tuple[tuple[Point, ...], tuple[Point, ...]]
    readings: tuple[Reading, Reading]  # as asked: A first, then B first

    @property
    def error(self) -> str | None:
        return next((r.error for r in self.readings if r.error), None)


def reconcile(straight: Reading, swapped: Reading) -> Judgement:
    """Combine the answer with A first and the answer with B first."""
    back = _turned(swapped.preference)
    usable = straight.error is None and swapped.error is None
    preferred = straight.preference if usable and straight.preference == back else None
    flipped = usable and straight.preference != back
    criteria, unsettled = {}, []
    for name in sorted(set(straight.criteria) | set(swapped.criteria)):
        one, two = straight.criteria.get(name), swapped.criteria.get(name)
        if usable and one is not None and two is not None and one == (two[1], two[0]):
            criteria[name] = one
        else:
            unsettled.append(name)
    return Judgement(preferred, flipped, criteria, tuple(unsettled),
                     _merged(straight.strengths, swapped.strengths), _merged(straight.weaknesses, swapped.weaknesses),
                     (straight, swapped))


def _turned(preference: int | None) -> int | None:
    return None if preference is None else 1 - preference


def _merged(straight: tuple[tuple[Point, ...], tuple[Point, ...]],
            swapped: tuple[tuple[Point, ...], tuple[Point, ...]]) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    """Each side's points from both answers, the first answer's first, without repeats."""
    out = []
    for side in (0, 1):
        seen: dict[str, Point] = {}
        for point in straight[side] + swapped[1 - side]:
            seen.setdefault(point.text, point)
        out.append(tuple(seen.values()))
    return out[0], out[1]
