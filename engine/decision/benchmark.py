"""benchmark.json in skill-creator's schema, with referee's additions beside it.

skill-creator's viewer reads ``metadata`` (skill_name, timestamp, evals_run,
runs_per_configuration), ``run_summary`` (every key but ``delta`` is a
configuration; the first two are its columns A and B, each ``pass_rate``,
``time_seconds``, ``tokens`` as ``{mean, stddev}``; ``delta`` holds signed
strings), ``runs`` (eval_id, eval_name, configuration, run_number, ``result``
with pass_rate, passed, total, time_seconds, errors; ``expectations`` with
text, passed, evidence) and ``notes``. So ``run_summary`` holds the primary
first, the baseline second, and nothing but configurations and ``delta``.

``pass_rate`` everywhere in those fields is the gated pass rate (existence
checks and ungraded assertions left out); ``pass_rate_all_graded`` beside it
is over every graded assertion. Both are labelled in ``metadata.pass_rates``.
"""

from __future__ import annotations

from typing import Any

from referee.engine import __version__
from referee.engine.decision.analysis import Analysis, AssertionRow, Delta, EvalRow, Summary
from referee.engine.decision.collect import GradedRun
from referee.engine.decision.contamination import Finding
from referee.engine.decision.notes import assertion_rates, discriminates
from referee.engine.decision.release import Decision
from referee.engine.run.workspace import natural_key
from referee.engine.text import ascii_digits

PASS_RATES = {
    "pass_rate": "gated: passed / counted assertions of each run's gate (existence checks and "
                 "ungraded semantic assertions are not counted), averaged over runs",
    "pass_rate_all_graded": "all graded: passed / every graded assertion (existence included; "
                            "not-graded left out), averaged over runs",
}
_DELTA_FORMAT = {"pass_rate": "{:+.2f}", "pass_rate_all_graded": "{:+.2f}", "time_seconds": "{:+.1f}",
                 "tokens": "{:+.0f}"}
_DELTA_DIGITS = {"pass_rate": 2, "pass_rate_all_graded": 2, "time_seconds": 1, "tokens": 0}


def document(analysis: Analysis, decision: Decision, notes: list[str], meta: dict[str, Any],
             gradings: dict[str, str | None] | None = None) -> dict:
    """The whole benchmark.json; ``meta`` gives skill_name and skill_path; ``gradings``
    the digest of each run's grading.json as read (None for a run without one), kept
    in ``inputs`` so a report can tell a benchmark older than its grades."""
    choice = analysis.choice
    return {
        "metadata": _metadata(analysis, meta),
        "runs": [_run(r, analysis) for r in analysis.runs],
        "run_summary": _run_summary(analysis),
        "notes": notes,
        "release": decision.as_dict(),
        "comparisons": comparisons(analysis),
        "evals": [_eval(row, choice.ordered) for row in analysis.evals],
        "assertions": [_assertion(row, choice.ordered) for row in analysis.assertions],
        "unusable_runs": [{"path": u.path, "eval_id": u.eval_id, "configuration": u.configuration,
                           "reason": u.reason} for u in analysis.unusable],
        "contaminated_runs": [{"path": path, "included_in_delta": analysis.include_contaminated,
                               "evidence": [_finding(f) for f in found]}
                              for path, found in sorted(analysis.contamination.items())],
        "left_out_of_delta": left_out_of_delta(analysis),
        "inputs": {"grading_json": dict(sorted((gradings or {}).items(), key=lambda kv: natural_key(kv[0])))},
    }


def eval_id_value(eval_id: str) -> int | str:
    """skill-creator writes numeric ids as numbers (its viewer sorts them as numbers)."""
    return int(eval_id) if ascii_digits(eval_id, most=15) else eval_id


def _metadata(analysis: Analysis, meta: dict[str, Any]) -> dict:
    counts = [s.runs for row in analysis.evals for s in row.stability.values()]
    return {
        "skill_name": meta.get("skill_name"),
        "skill_path": meta.get("skill_path"),
        "executor_model": None,
        "analyzer_model": None,  # the notes are computed, no model wrote them
        "timestamp": None,  # output depends on the runs alone, so no clock time
        "evals_run": [eval_id_value(row.eval_id) for row in analysis.evals],
        # the fewest runs any eval has in any configuration: what every figure rests on at least
        "runs_per_configuration": min(counts) if counts else 0,
        "runs_per_configuration_max": max(counts) if counts else 0,
        "primary": analysis.choice.primary,
        "baseline": analysis.choice.baseline,
        "configurations": list(analysis.choice.ordered),
        "mode": analysis.mode,
        "pass_rates": PASS_RATES,
        "grader": {"name": "referee", "version": __version__},
    }


def _rate(passed: int, total: int) -> float | None:
    return round(passed / total, 4) if total else None


def _number(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _run(run: GradedRun, analysis: Analysis) -> dict:
    found = analysis.contamination.get(run.path, ())
    return {
        "eval_id": eval_id_value(run.eval_id),
        "eval_name": run.eval_name,
        "configuration": run.configuration,
        "run_number": run.run_number,
        "result": {
            "pass_rate": _rate(run.gate_passed, run.gate_total),
            "passed": run.gate_passed,
            "failed": run.gate_total - run.gate_passed,
            "total": run.gate_total,
            "time_seconds": _number(run.time_seconds, 3),
            "tokens": run.tokens,
            "tool_calls": run.tool_calls,
            "errors": run.errors,  # None (null) where the run's calls were not all read, as tool_calls
            "pass_rate_all_graded": _rate(run.graded_passed, run.graded_total),
            "passed_all_graded": run.graded_passed,
            "total_all_graded": run.graded_total,
            "gate_errors": run.gate_errors,
            "not_graded": run.not_graded,
        },
        "expectations": [{"text": e.text, "passed": e.outcome == "pass", "evidence": e.evidence,
                          "key": e.key, "outcome": e.outcome, "counted": e.counted}
                         for e in run.expectations],
        "notes": [f"contaminated: {f.describe()}" for f in found],
        "path": run.path,
        "run_label": run.label,
        "contaminated": bool(found),
        "counted_in_summary": analysis.counts(run),
    }


def figures(analysis: Analysis) -> dict:
    """``run_summary`` and ``comparisons`` as benchmark.json holds them: the pass
    rates and deltas a report shows (and checks against the grades)."""
    return {"run_summary": _run_summary(analysis), "comparisons": comparisons(analysis)}


def comparisons(analysis: Analysis) -> list[dict]:
    return [_comparison(d) for d in analysis.deltas]


def left_out_of_delta(analysis: Analysis) -> list[dict]:
    """Each eval a delta leaves out (one side has no counted run of it), with the
    delta and the configuration whose runs it has."""
    return [{"eval_id": eval_id_value(eval_id), "configuration": delta.configuration, "baseline": delta.baseline,
             "runs_of": config} for delta in analysis.deltas for eval_id, config in delta.left_out]


def _run_summary(analysis: Analysis) -> dict:
    summary: dict[str, Any] = {}
    for config, found in analysis.summaries.items():
        summary[config] = _summary(found)
    if analysis.delta is not None:
        summary["delta"] = _delta_strings(analysis.delta)
    return summary


def _summary(found: Summary) -> dict:
    out: dict[str, Any] = {}
    for name, stat in found.metrics.items():
        out[name] = None if stat is None else stat.as_dict(4 if "pass_rate" in name else 1)
    out["runs"] = found.runs
    out["excluded_contaminated"] = found.excluded
    return out


def _delta_strings(delta: Delta) -> dict:
    out = {}
    for name, value in delta.values.items():
        if value is not None:
            out[name] = _DELTA_FORMAT[name].format(round(value, _DELTA_DIGITS[name]) + 0.0)
    return out


def _comparison(delta: Delta) -> dict:
    return {"configuration": delta.configuration, "baseline": delta.baseline,
            "runs": {delta.configuration: delta.runs[0], delta.baseline: delta.runs[1]},
            "delta": {k: (None if v is None else round(v, 4)) for k, v in delta.values.items()},
            "delta_text": _delta_strings(delta)}


def _eval(row: EvalRow, configs: tuple[str, ...]) -> dict:
    per_config = {}
    for config in configs:
        if config in row.stability:
            found = row.stability[config].as_dict()
            graded = row.graded.get(config)
            found["pass_rate_all_graded"] = graded.as_dict() if graded else None
            per_config[config] = found
    return {"eval_id": eval_id_value(row.eval_id), "eval_name": row.eval_name, "configurations": per_config,
            "delta_pass_rate": _eval_delta(row, configs)}


def _eval_delta(row: EvalRow, configs: tuple[str, ...]) -> float | None:
    if len(configs) < 2 or configs[0] not in row.stability or configs[1] not in row.stability:
        return None
    a, b = row.stability[configs[0]].rates, row.stability[configs[1]].rates
    return None if a is None or b is None else round(a.mean - b.mean, 4)


def _assertion(row: AssertionRow, configs: tuple[str, ...]) -> dict:
    per_config = {}
    for config in configs:
        tally = row.outcomes.get(config, {})
        rates = assertion_rates(row, config)
        per_config[config] = {
            "passed": tally.get("pass", 0), "failed": tally.get("fail", 0), "errors": tally.get("error", 0),
            "not_graded": tally.get("not_graded", 0),
            "pass_rate": None if rates is None else round(rates[0] / rates[1], 4),
        }
    return {"eval_id": eval_id_value(row.eval_id), "key": row.key, "text": row.text, "precision": row.precision,
            "counted": row.counted, "discriminates": discriminates(row, configs), "configurations": per_config}


def _finding(f: Finding) -> dict:
    return {"step": f.step, "tool": f.tool, "location": f.location, "target": f.target, "quote": f.quote}
