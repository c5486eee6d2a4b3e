"""What the report formats say alike: the decision sentence, the configuration
and benchmark tables as text cells, the list of failures in order, and what of
the other configurations is context (a baseline that fails by design)."""

from __future__ import annotations

from typing import Any

from referee.engine.report.collect import Collection, ConfigRow, GradedRun
from referee.engine.report.marker import GRADING
from referee.engine.report.models import Expectation
from referee.engine.text import count

FAILED = ("fail", "error")
CONFIG_HEAD = ["configuration", "runs passed", "gated passed", "all graded passed", "not graded",
               "mean pass rate (all graded)"]
_BENCH_FIELDS = (("pass_rate", "pass rate"), ("time_seconds", "time (s)"), ("tokens", "tokens"))


def decision_line(collection: Collection) -> str:
    """``3 of 6 runs passed; gated assertions 18/28 passed; 6 not graded``; with a
    primary known, its runs' figures alone (``with_skill: 3 of 3 runs passed; ...``):
    the other configurations are context (``context_lines``)."""
    runs = collection.counted()
    passed = sum(1 for r in runs if r.status == "PASS")
    gate_passed = sum(r.report.gate.passed for r in runs)
    gate_total = sum(r.report.gate.total for r in runs)
    not_graded = sum(r.report.summary.not_graded for r in runs)
    line = (f"{passed} of {count(len(runs), 'run')} passed; "
            f"gated assertions {gate_passed}/{gate_total} passed")
    if collection.primary is not None:
        line = f"{collection.primary}: {line}"
    if not gate_total:
        line += " (nothing counted toward the gate: this is not a pass)"
    unread = collection.unread_counted()
    if unread:
        line += f"; {count(len(unread), 'run')} not read (a {GRADING} that cannot be read: this is not a pass)"
    if not_graded:
        line += f"; {not_graded} semantic not graded (never counted as passes)"
    return line


def context_lines(collection: Collection) -> list[str]:
    """Each configuration shown as context: ``without_skill (baseline, context: not
    gated): 0 of 3 runs passed, 10 failed assertions``."""
    found: dict[str, list[GradedRun]] = {}
    for run in collection.context():
        found.setdefault(run.info.configuration, []).append(run)
    lines = []
    for config, runs in found.items():
        passed = sum(1 for r in runs if r.status == "PASS")
        failed = sum(1 for r in runs for e in r.report.expectations if e.outcome in FAILED)
        lines.append(f"{config} ({role_word(runs[0])}, context: not gated): {passed} of "
                     f"{count(len(runs), 'run')} passed, {count(failed, 'failed assertion')}")
    return lines


def role_word(run: GradedRun) -> str:
    return {"primary": "primary", "baseline": "baseline"}.get(run.role, "another configuration")


def release_reasons(collection: Collection, breached: bool = False) -> list[str]:
    """The release rules of benchmark.json and how each stands: ``ok pass_rate: ...``;
    with ``breached``, only those that do not hold."""
    release = collection.release
    reasons = release.get("reasons") if release else None
    if not isinstance(reasons, list):
        return []
    return [f"{r.get('status', '?')} {r.get('rule', '?')}: {r.get('message', '')}"
            for r in reasons if isinstance(r, dict) and not (breached and r.get("status") == "ok")]


def config_cells(row: ConfigRow) -> list[str]:
    name = row.name + {"primary": " (primary)", "baseline": " (baseline: context)",
                       "context": " (context)"}.get(row.role, "")
    return [name, f"{row.runs_passed}/{row.runs}", f"{row.gate_passed}/{row.gate_total}",
            f"{row.passed}/{row.total}", str(row.not_graded),
            _plain(None) if row.mean_pass_rate is None else f"{row.mean_pass_rate:.2%}"]


def failures(collection: Collection) -> list[tuple[GradedRun, Expectation]]:
    """Every failed or errored assertion of the runs the gate counts, run by run, in
    the reports' order (a baseline's are context: ``context_lines``)."""
    return [(run, item) for run in collection.counted() for item in run.report.expectations
            if item.outcome in FAILED]


def benchmark_rows(benchmark: dict[str, Any] | None) -> list[list[str]]:
    """benchmark.json's ``run_summary`` as a header and one row per configuration
    (then the delta); empty when there is no benchmark or no summary in it."""
    summary = benchmark.get("run_summary") if isinstance(benchmark, dict) else None
    if not isinstance(summary, dict):
        return []
    rows = [["configuration"] + [label for _, label in _BENCH_FIELDS]]
    for name, stats in summary.items():
        if name == "delta" or not isinstance(stats, dict):
            continue
        rows.append([str(name)] + [_stat(stats.get(key), key == "pass_rate") for key, _ in _BENCH_FIELDS])
    delta = summary.get("delta")
    if isinstance(delta, dict):
        rows.append(["delta"] + [_points(delta.get(key)) if key == "pass_rate" else _plain(delta.get(key))
                                 for key, _ in _BENCH_FIELDS])
    return rows


def _stat(value: Any, percent: bool = False) -> str:
    """``mean ± stddev``; a pass rate (a fraction in benchmark.json) in percent, as
    every other table shows pass rates."""
    show = _percent if percent else _plain
    if isinstance(value, dict) and "mean" in value:
        mean = show(value.get("mean"))
        spread = value.get("stddev")
        return f"{mean} ± {show(spread)}" if spread is not None else mean
    return show(value)


def _percent(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value * 100:.0f}%"
    return _plain(value)


def _points(value: Any) -> str:
    """A delta of pass rates (benchmark.json writes ``"+0.78"``) in percentage points."""
    try:
        return f"{float(value) * 100:+.0f} pts"
    except (TypeError, ValueError):
        return _plain(value)


def _plain(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):  # 11383.3 reads as such, not as 1.138e+04
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.1f}" if abs(value) >= 100 else f"{value:.4g}"
    return str(value)
