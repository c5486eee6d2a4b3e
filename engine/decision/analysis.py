"""The numbers of a benchmark, computed once from the graded runs.

Every figure is a mean over runs of a per-run figure (a run's gated pass rate,
its pass rate over all graded assertions, its seconds, its tokens): never the
best run, and never pooled assertion counts, so each run weighs the same. Runs
with nothing counted have no rate and are left out of the rate means (they are
reported, never counted as 0 %). Contaminated runs are left out of a
configuration's summary and so of every delta, unless asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from referee.dsl.frozen import frozen
from referee.engine.decision.collect import GradedRun, Unusable, run_order
from referee.engine.decision.configurations import Choice
from referee.engine.decision.contamination import Finding
from referee.engine.decision.stability import Stability, Stats, stability, stats
from referee.engine.run.workspace import natural_key

METRICS: dict[str, Callable[[GradedRun], float | None]] = {
    "pass_rate": lambda r: r.gate_rate,
    "pass_rate_all_graded": lambda r: r.graded_rate,
    "time_seconds": lambda r: r.time_seconds,
    "tokens": lambda r: None if r.tokens is None else float(r.tokens),
}


@frozen
class Summary:
    """One configuration over the runs that count for it."""

    configuration: str
    runs: int
    excluded: int  # contaminated runs left out
    metrics: dict[str, Stats | None]


@frozen
class Delta:
    """``configuration`` minus ``baseline``, per metric (None where a side has no data)."""

    configuration: str
    baseline: str
    values: dict[str, float | None]
    runs: tuple[int, int]
    # The evals both sides have counted runs of: the delta is over their runs alone.
    evals: tuple[str, ...] = ()
    # Evals only one side has runs of, each with that side: left out of the delta.
    left_out: tuple[tuple[str, str], ...] = ()


@frozen
class EvalRow:
    eval_id: str
    eval_name: str | None
    stability: dict[str, Stability]  # configuration -> stability over its runs of this eval
    graded: dict[str, Stats | None]  # configuration -> all-graded pass rates


@frozen
class AssertionRow:
    eval_id: str
    key: str
    text: str
    precision: str
    counted: bool
    outcomes: dict[str, dict[str, int]]  # configuration -> outcome -> runs


@dataclass
class Analysis:
    choice: Choice
    mode: str
    runs: list[GradedRun]
    unusable: list[Unusable]
    contamination: dict[str, tuple[Finding, ...]]
    include_contaminated: bool
    # runs found clean whose calls may be incomplete: path -> why (not shown clean)
    unchecked: dict[str, str] = field(default_factory=dict)
    summaries: dict[str, Summary] = field(default_factory=dict)
    deltas: list[Delta] = field(default_factory=list)
    evals: list[EvalRow] = field(default_factory=list)
    assertions: list[AssertionRow] = field(default_factory=list)

    @property
    def delta(self) -> Delta | None:
        """The primary against the baseline (None with a single configuration)."""
        return self.deltas[0] if self.deltas else None

    def counts(self, run: GradedRun) -> bool:
        return self.include_contaminated or not self.contamination.get(run.path)


def analyse(runs: Sequence[GradedRun], unusable: Sequence[Unusable], choice: Choice, mode: str,
            contamination: dict[str, tuple[Finding, ...]], include_contaminated: bool = False,
            unstable_spread: float = 0.15, unchecked: dict[str, str] | None = None) -> Analysis:
    """Everything the benchmark, the notes and the release decision read."""
    ordered = sorted(runs, key=run_order)
    found = {k: v for k, v in contamination.items() if v}
    result = Analysis(choice, mode, ordered, sorted(unusable, key=lambda u: natural_key(u.path)), found,
                      include_contaminated, {k: v for k, v in (unchecked or {}).items() if k not in found})
    for config in choice.ordered:
        mine = [r for r in ordered if r.configuration == config]
        kept = [r for r in mine if result.counts(r)]
        result.summaries[config] = Summary(config, len(kept), len(mine) - len(kept),
                                           {name: stats(_values(kept, f)) for name, f in METRICS.items()})
    if choice.baseline is not None:
        counted = [r for r in ordered if result.counts(r)]
        for config in (choice.primary,) + choice.others:
            result.deltas.append(_delta(counted, config, choice.baseline))
    result.evals = _evals(ordered, choice, mode, unstable_spread, result)
    result.assertions = _assertions(ordered, choice)
    return result


def _values(runs: Sequence[GradedRun], metric: Callable[[GradedRun], float | None]) -> list[float]:
    return [v for v in (metric(r) for r in runs) if v is not None]


def _delta(counted: Sequence[GradedRun], config: str, baseline: str) -> Delta:
    """``config`` minus ``baseline`` over the evals both have runs of: an eval run by one
    side only would weigh its difficulty, not the skill, into the delta (eval 1 with the
    skill against eval 2 without it compares two tasks)."""
    mine = [r for r in counted if r.configuration == config]
    theirs = [r for r in counted if r.configuration == baseline]
    shared = {r.eval_id for r in mine} & {r.eval_id for r in theirs}
    left_out = tuple(sorted(((r.eval_id, r.configuration) for r in (*mine, *theirs) if r.eval_id not in shared),
                            key=lambda pair: (natural_key(pair[0]), pair[1] != config)))
    mine = [r for r in mine if r.eval_id in shared]
    theirs = [r for r in theirs if r.eval_id in shared]
    values = {}
    for name, metric in METRICS.items():
        a, b = stats(_values(mine, metric)), stats(_values(theirs, metric))
        values[name] = None if a is None or b is None else a.mean - b.mean
    return Delta(config, baseline, values, (len(mine), len(theirs)), tuple(_unique(shared)),
                 tuple(dict.fromkeys(left_out)))


def _evals(runs: list[GradedRun], choice: Choice, mode: str, spread: float, analysis: Analysis) -> list[EvalRow]:
    rows = []
    for eval_id in _unique(r.eval_id for r in runs):
        mine = [r for r in runs if r.eval_id == eval_id]
        names = sorted({r.eval_name for r in mine if r.eval_name})
        per_config, graded = {}, {}
        for config in choice.ordered:
            kept = [r for r in mine if r.configuration == config and analysis.counts(r)]
            if kept:
                per_config[config] = stability([r.gate_rate for r in kept], mode, spread)
                graded[config] = stats(_values(kept, METRICS["pass_rate_all_graded"]))
        rows.append(EvalRow(eval_id, names[0] if names else None, per_config, graded))
    return rows


def _assertions(runs: list[GradedRun], choice: Choice) -> list[AssertionRow]:
    found: dict[tuple[str, str], AssertionRow] = {}
    for run in runs:
        for item in run.expectations:
            row = found.get((run.eval_id, item.key))
            if row is None:
                row = found[(run.eval_id, item.key)] = AssertionRow(
                    run.eval_id, item.key, item.text, item.precision, item.counted,
                    {c: {} for c in choice.ordered})
            tally = row.outcomes.setdefault(run.configuration, {})
            tally[item.outcome] = tally.get(item.outcome, 0) + 1
    return sorted(found.values(), key=lambda a: (natural_key(a.eval_id), natural_key(a.key)))


def _unique(values: Iterable[str]) -> list[str]:
    return sorted(set(values), key=natural_key)
