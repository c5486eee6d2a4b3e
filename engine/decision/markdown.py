"""benchmark.md: the benchmark for a person, rendered from benchmark.json's document.

Names and texts from the workspace (configurations, evals, assertions, paths,
reasons) are written with ``engine.report.markdown_text``: escaped in cells and
lines, as inline code in code spans, so none adds markup or breaks a table; the
table cells referee writes itself (numbers, ``yes``) are written as they are.
"""

from __future__ import annotations

from typing import Any

from referee.engine.report.markdown_text import cell, code_span


def render(doc: dict) -> str:
    """The Markdown text; a function of the document alone."""
    meta, release = doc["metadata"], doc["release"]
    lines = [f"# Benchmark: {cell(meta['skill_name'] or 'skill')}", ""]
    lines += [f"**Decision: {release['decision']}** (exit code {release['exit_code']}; "
              f"rules {cell(release['config'])}, {release['mode']} mode)", ""]
    lines += [f"- {'✓' if r['status'] == 'ok' else '✗' if r['status'] == 'fail' else '!'} "
              f"{cell(r['rule'])}: {cell(r['message'])}" for r in release["reasons"]]
    baseline = meta["baseline"]
    lines += ["", f"Primary: {code_span(meta['primary'])}"
              + (f", baseline: {code_span(baseline)}" if baseline else " (one configuration: no baseline, no delta)"),
              f"Evals: {', '.join(cell(e) for e in meta['evals_run'])}; runs per configuration: "
              f"{meta['runs_per_configuration']}" + (f" to {meta['runs_per_configuration_max']}"
                                                      if meta['runs_per_configuration_max'] != meta['runs_per_configuration'] else ""),
              "", "Pass rates: " + meta["pass_rates"]["pass_rate"] + "; "
              + meta["pass_rates"]["pass_rate_all_graded"] + ".", ""]
    lines += _summary(doc) + _evals(doc) + _assertions(doc) + _left_out(doc)
    if doc["notes"]:
        lines += ["## Notes", ""] + [f"- {cell(n)}" for n in doc["notes"]] + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _summary(doc: dict) -> list[str]:
    summary = doc["run_summary"]
    configs = [k for k in summary if k != "delta"]
    head = ["metric"] + [cell(c) for c in configs] + (["delta"] if "delta" in summary else [])
    rows = []
    for metric, pct in (("pass_rate", True), ("pass_rate_all_graded", True), ("time_seconds", False),
                        ("tokens", False)):
        row = [_label(metric)] + [_stat(summary[c].get(metric), pct) for c in configs]
        if "delta" in summary:
            row.append(_delta(doc, metric, pct))
        rows.append(row)
    rows.append(["runs counted"] + [str(summary[c]["runs"]) for c in configs]
                + ([""] if "delta" in summary else []))
    out = ["## Summary", ""] + _table(head, rows)
    for comp in doc["comparisons"][1:]:
        out.append(f"{cell(comp['configuration'])} against {cell(comp['baseline'])}: "
                   + ", ".join(f"{k} {v}" for k, v in comp["delta_text"].items()))
    return out + [""]


def _evals(doc: dict) -> list[str]:
    configs = doc["metadata"]["configurations"]
    head = ["eval", "configuration", "runs", "gated mean", "spread", "pass@k", "pass^k", "stable"]
    rows = []
    for row in doc["evals"]:
        name = cell(f"{row['eval_id']}" + (f" {row['eval_name']}" if row["eval_name"] else ""))
        for config in configs:
            s = row["configurations"].get(config)
            if s is None:
                continue
            rate = s["pass_rate"]
            rows.append([name, cell(config), f"{s['runs']}" + ("" if s["enough_runs"] else f" (<{s['required_runs']})"),
                         "—" if rate is None else f"{rate['mean']:.0%}",
                         "—" if s["spread"] is None else f"{s['spread'] * 100:.0f} pts",
                         _ks(s["pass_at_k"]), _ks(s["pass_hat_k"]), "no" if s["unstable"] else "yes"])
    return ["## Per eval", ""] + _table(head, rows) + [""]


def _assertions(doc: dict) -> list[str]:
    configs = doc["metadata"]["configurations"]
    head = ["eval", "assertion", "counted"] + [cell(c) for c in configs] + ["discriminates"]
    rows = []
    for a in doc["assertions"]:
        cells = []
        for config in configs:
            c = a["configurations"][config]
            graded = c["passed"] + c["failed"] + c["errors"]
            cells.append(f"{c['passed']}/{graded}" + (f" ({c['not_graded']} not graded)" if c["not_graded"] else "")
                         if graded or c["not_graded"] else "—")
        verdict = {True: "yes", False: "no", None: "—"}[a["discriminates"]]
        rows.append([cell(a["eval_id"]), cell(f"{a['key']} {a['text']}"), "yes" if a["counted"] else "no"]
                    + cells + [verdict])
    return ["## Per assertion (runs passed / graded)", ""] + _table(head, rows) + [""]


def _left_out(doc: dict) -> list[str]:
    out = []
    if doc["unusable_runs"]:
        out += (["## Runs not counted", ""]
                + [f"- {code_span(u['path'])}: {cell(u['reason'])}" for u in doc["unusable_runs"]] + [""])
    if doc["contaminated_runs"]:
        out += ["## Contaminated runs", ""]
        for c in doc["contaminated_runs"]:
            for e in c["evidence"]:
                step = f"step {e['step']} " if e["step"] is not None else ""
                out.append(f"- {code_span(c['path'])}: {step}{cell(e['tool'])} ({cell(e['location'])}) reads "
                           f"{cell(e['target'])}: {cell(e['quote'])}")
        out.append("")
    return out


def _label(metric: str) -> str:
    return {"pass_rate": "pass rate (gated)", "pass_rate_all_graded": "pass rate (all graded)",
            "time_seconds": "time (s)", "tokens": "tokens"}[metric]


def _stat(stat: Any, pct: bool) -> str:
    if not stat:
        return "—"
    if pct:
        return f"{stat['mean'] * 100:.0f}% ± {stat['stddev'] * 100:.0f}%"
    return f"{stat['mean']:.1f} ± {stat['stddev']:.1f}"


def _delta(doc: dict, metric: str, pct: bool) -> str:
    """The primary's delta, in the unit of its row: percentage points beside
    percentages (benchmark.json's own ``delta`` strings are fractions, as
    skill-creator writes them)."""
    if not pct:
        return doc["run_summary"]["delta"].get(metric, "—")
    value = doc["comparisons"][0]["delta"].get(metric) if doc["comparisons"] else None
    return "—" if value is None else f"{value * 100:+.0f} pts"


def _ks(values: dict) -> str:
    return " ".join(f"{k}:{v:.2f}" for k, v in values.items()) or "—"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    """Cells as given: a name from the workspace comes already through ``cell``."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out
