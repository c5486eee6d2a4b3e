"""Execution patterns: the sequence of tools each run called, and what is common.

A run's pattern is its trusted tool calls in order, repeats of one tool in a row
written once with a count (``Read ×3``), a call that ended in error marked
``(error)``; a run whose calls may not all have been read says so after them
(``Read -> (calls may be incomplete)``), never "(no tool calls)". Per eval and configuration the most frequent pattern is named with
how many runs followed it; ties go to the pattern first in the runs' order.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from referee.engine.compare.facts import calls_unsure
from referee.engine.compare.load import Graded

ARROW = " -> "
UNREAD = "(calls may be incomplete)"


def pattern(run: Graded) -> str:
    """The run's tool sequence; "(no tool calls)" when it made none, and the mark of
    calls not read when some may be missing."""
    steps: list[list] = []
    for call in run.source.transcript.calls:
        name = (call.tool or "?") + (" (error)" if (call.status or "").lower() == "error" else "")
        if steps and steps[-1][0] == name:
            steps[-1][1] += 1
        else:
            steps.append([name, 1])
    said = [f"{name} ×{count}" if count > 1 else name for name, count in steps]
    if calls_unsure(run):  # a call not read may stand anywhere in the sequence
        return ARROW.join(said + [UNREAD])
    return ARROW.join(said) or "(no tool calls)"


def common(runs: Sequence[Graded]) -> str:
    """The most frequent pattern among ``runs``, with its share, and how many others."""
    if not runs:
        return "(no runs)"
    found = [pattern(run) for run in runs]
    counts = Counter(found)
    best = max(counts.values())
    top = next(p for p in found if counts[p] == best)
    others = len(counts) - 1
    rest = f"; {others} other pattern{'s' if others != 1 else ''}" if others else ""
    return f"{top} ({best} of {len(runs)} run{'s' if len(runs) != 1 else ''}{rest})"


def by_eval(runs: Sequence[Graded], evals: Sequence[tuple[str, str | None]]) -> str:
    """One configuration's common pattern per eval, joined: "eval 1: A -> B (2 of 2 runs) | eval 2: ..."."""
    parts = []
    for eval_id, _ in evals:
        mine = [r for r in runs if r.eval_id == eval_id]
        if mine:
            parts.append(f"eval {eval_id}: {common(mine)}")
    return " | ".join(parts) or "(no runs)"
