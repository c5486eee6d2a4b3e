"""A deterministic critique of an eval's assertions, across all its runs.

skill-creator's grader writes ``eval_feedback`` in prose; here every suggestion
comes from a fact that can be re-checked:

- ``existence``: the assertion only checks that something exists, so a wrong
  answer passes it too (it is kept out of the release gate);
- ``vacuous``: it passed in some run only because nothing was there to examine
  (a negative check over a missing response, ``all`` over no calls);
- ``tool never called``: it selects calls of a tool that no run of the eval called,
  so it can only fail (or, if it forbids the tool, it was never put to the test);
- ``no contrast``: it passed in every run of two or more configurations, so it does
  not tell the skill apart from the baseline.

The critique needs every run of the eval, so it is computed once per eval and the
same block is written into each of its runs.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from referee.engine.report.build import display_text
from referee.engine.verdict import Precision

@dataclass(frozen=True)
class RunFacts:
    """What the critique needs from one graded run of the eval."""

    path: str
    configuration: str
    tools: tuple[str, ...]
    outcomes: tuple[str, ...]  # per assertion, in the eval's order
    vacuous: tuple[bool, ...]


@dataclass(frozen=True)
class ToolFilter:
    kind: str  # "exact", "glob" or "regex"
    pattern: str
    flags: str = ""

    def matches(self, tool: str) -> bool:
        if self.kind == "exact":
            return tool == self.pattern
        if self.kind == "glob":
            return fnmatch.fnmatchcase(tool, self.pattern)
        return _compiled(self.pattern, self.flags).search(tool) is not None

    def __str__(self) -> str:
        if self.kind == "regex":
            return f"/{self.pattern}/{self.flags}"
        return self.pattern


def eval_feedback(assertions: Sequence[Any], runs: Sequence[RunFacts]) -> dict:
    """``{suggestions: [{reason, assertion}], overall}`` for one eval.

    ``assertions`` are the eval's compiled assertions (``text``, ``precision``,
    ``tool_patterns``); ``runs`` are its graded runs in discovery order.
    """
    called = sorted({tool for run in runs for tool in run.tools})
    suggestions: list[dict] = []
    for position, assertion in enumerate(assertions):
        for reason in _reasons(assertion, position, runs, called):
            suggestions.append({"reason": reason, "assertion": display_text(assertion)})
    return {"suggestions": suggestions, "overall": _overall(suggestions, len(assertions), len(runs))}


def _reasons(assertion: Any, position: int, runs: Sequence[RunFacts],
             called: list[str]) -> Iterable[str]:
    precision = Precision(assertion.precision)
    if precision is Precision.EXISTENCE:
        yield ("checks only that something exists: a wrong answer passes it too, so it does "
               "not count toward the gate; check the content instead")
    vacuous = [run.path for run in runs if _at(run.vacuous, position) and _at(run.outcomes, position) == "pass"]
    if vacuous:
        yield (f"passed only because there was nothing to examine in {_count(vacuous, 'run')} "
               f"({_list(vacuous)}); pair it with a check that the thing exists")
    filters = [ToolFilter(p.kind, p.text, p.flags) for p in assertion.tool_patterns]
    if filters and runs and not any(f.matches(tool) for f in filters for tool in called):
        names = ", ".join(str(f) for f in filters)
        seen = _list(called) if called else "none"
        yield (f"selects calls to {names}, which no run of this eval called (tools called: {seen}); "
               "check the tool name, or the eval never exercised this tool")
    if precision is not Precision.EXISTENCE:
        configurations = sorted({run.configuration for run in runs})
        everywhere = runs and all(_at(run.outcomes, position) == "pass" for run in runs)
        if everywhere and len(configurations) >= 2 and not vacuous:
            yield (f"passed in every run of every configuration ({', '.join(configurations)}): "
                   "it does not tell the skill apart from the baseline")


def _compiled(pattern: str, flags: str) -> re.Pattern:
    value = 0
    for letter, flag in (("i", re.I), ("m", re.M), ("s", re.S), ("x", re.X)):
        if letter in flags:
            value |= flag
    try:
        return re.compile(pattern, value)
    except re.error:
        return re.compile(re.escape(pattern), value)


def _overall(suggestions: list[dict], assertions: int, runs: int) -> str:
    if not suggestions:
        return (f"No deterministic critique of the {_count(range(assertions), 'assertion')} "
                f"over {_count(range(runs), 'run')}.")
    flagged = len({item["assertion"] for item in suggestions})
    return (f"{_count(suggestions, 'suggestion')} on {flagged} of "
            f"{_count(range(assertions), 'assertion')}, from {_count(range(runs), 'run')} of this eval.")


def _at(values: Sequence, position: int) -> Any:
    return values[position] if position < len(values) else None


def _count(items: Any, noun: str) -> str:
    number = len(items)
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _list(items: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"
