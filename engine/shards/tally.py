"""An eval's critique facts (``facts.feedback.EvalTally``) as JSON, and folded across shards.

An eval's ``eval_feedback`` needs every run of the eval; a shard sees only its
own. Each shard writes the tally of each eval it graded into its manifest; the
merge folds them (a union of names, an "and" of "passed everywhere", a sum of
counts) into the tally one grade of every run would have made, and makes the
feedback from it. The first runs a suggestion names are the first in the
workspace's order: each shard keeps its first ``SHOWN_RUNS`` in that order, so
the first of all are among them.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from referee.engine.facts.contents import Contents
from referee.engine.facts.feedback import SHOWN_RUNS, EvalTally

_NAMES = ("tools", "args", "files", "timing", "metrics")


def tally_json(tally: EvalTally) -> dict[str, Any]:
    """The tally as plain JSON data (sets as sorted lists)."""
    contents = None if tally.contents is None else {name: sorted(getattr(tally.contents, name)) for name in _NAMES}
    return {"positions": tally.positions, "runs": tally.runs, "tools": sorted(tally.tools),
            "tools_certain": tally.tools_certain, "configurations": sorted(tally.configurations),
            "contents": contents, "passed_everywhere": list(tally.passed_everywhere),
            "vacuous": [list(paths) for paths in tally.vacuous], "vacuous_count": list(tally.vacuous_count),
            "working": tally.working, "idle": [list(paths) for paths in tally.idle],
            "idle_count": list(tally.idle_count)}


def tally_from_json(data: dict[str, Any]) -> EvalTally:
    """The tally ``tally_json`` wrote (the manifest's model has checked its types)."""
    tally = EvalTally(data["positions"])
    tally.runs = data["runs"]
    tally.tools = set(data["tools"])
    tally.tools_certain = data["tools_certain"]
    tally.configurations = set(data["configurations"])
    found = data["contents"]
    tally.contents = None if found is None else Contents(**{name: frozenset(found[name]) for name in _NAMES})
    tally.passed_everywhere = list(data["passed_everywhere"])
    tally.vacuous = [list(paths) for paths in data["vacuous"]]
    tally.vacuous_count = list(data["vacuous_count"])
    tally.working = data["working"]
    tally.idle = [list(paths) for paths in data["idle"]]
    tally.idle_count = list(data["idle_count"])
    return tally


def fold(tallies: Iterable[EvalTally], order: Callable[[str], Any]) -> EvalTally:
    """One tally of every run of the eval from the tallies of its shards; ``order``
    gives a run path's place in the workspace (for the first runs named)."""
    tallies = list(tallies)
    total = EvalTally(tallies[0].positions)
    total.contents = Contents()
    for one in tallies:
        total.runs += one.runs
        total.tools |= one.tools
        total.tools_certain = total.tools_certain and one.tools_certain
        total.configurations |= one.configurations
        total.working += one.working
        total.contents = None if total.contents is None or one.contents is None else total.contents | one.contents
        for position in range(total.positions):
            total.passed_everywhere[position] = total.passed_everywhere[position] and one.passed_everywhere[position]
            total.vacuous_count[position] += one.vacuous_count[position]
            total.vacuous[position] += one.vacuous[position]
            total.idle_count[position] += one.idle_count[position]
            total.idle[position] += one.idle[position]
    total.vacuous = [sorted(paths, key=order)[:SHOWN_RUNS] for paths in total.vacuous]
    total.idle = [sorted(paths, key=order)[:SHOWN_RUNS] for paths in total.idle]
    return total
