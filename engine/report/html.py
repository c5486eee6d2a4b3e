"""``referee report --format html``: one static, self-contained page.

On top the decision, the configuration table and the benchmark (when
present); then each eval: a side-by-side table of its assertions against every
run (configurations next to each other), then configuration → run, each
assertion with verdict, precision, method, evidence, the check, and the quoted
lines its evidence cites. Not-graded items stand in their own list, apart from
failures. A checkbox shows failures only.

Safety: every piece of text is HTML-escaped where it is written (``_e``); no
data goes into the page's script or style, which are constant, so nothing in a
run (``</script>`` included) can become markup. No network: no external link,
font, script or image.
"""

from __future__ import annotations

from html import escape

from referee.engine.report.collect import Collection, GradedRun
from referee.engine.report.html_assets import SCRIPT, STYLE
from referee.engine.report.models import Expectation
from referee.engine.report.tables import (CONFIG_HEAD, FAILED, benchmark_rows, config_cells, decision_line,
                                         failures, release_reasons)
from referee.engine.report.terminal import VACUOUS_MARK

_MARK = {"pass": "✓", "fail": "✗", "error": "!", "not_graded": "–"}
_LABEL = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "not_graded": "NOT GRADED"}


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def render_html(collection: Collection) -> str:
    title = f"referee report: {collection.root}"
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
             f"<h1>{_e(title)}</h1>"]
    parts += _top(collection)
    for eval_id, eval_name, runs in collection.evals():
        parts += _eval(eval_id, eval_name, runs)
    parts += [f"<script>{SCRIPT}</script>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _top(collection: Collection) -> list[str]:
    decision = collection.decision
    css = "pass" if decision == "PASS" else "fail" if decision == "FAIL" else "conditional"
    out = [f'<section id="decision" class="decision {css}">',
           f'<p class="verdict">Decision: <strong>{_e(decision)}</strong></p>',
           f"<p>{_e(decision_line(collection))}</p>"]
    reasons = release_reasons(collection)
    if reasons:
        out.append('<ul class="release">' + "".join(f"<li>{_e(r)}</li>" for r in reasons) + "</ul>")
    out += ["</section>", "<h2>Configurations</h2>"]
    out += _table(CONFIG_HEAD, [config_cells(r) for r in collection.configurations()], "configs")
    bench = benchmark_rows(collection.benchmark)
    if bench:
        out += ["<h2>Benchmark</h2>"] + _table(bench[0], bench[1:], "benchmark")
    if collection.problems:
        out += ['<h2>Problems</h2>', '<ul class="problems">']
        out += [f"<li>{_e(p)}</li>" for p in collection.problems]
        out.append("</ul>")
    count = len(failures(collection))
    out += ['<p class="controls"><label><input type="checkbox" id="only-failures"> '
            f"show failures only ({count})</label></p>"]
    return out


def _table(head: list[str], rows: list[list[str]], css: str) -> list[str]:
    out = [f'<table class="{css}"><thead><tr>' + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr></thead>",
           "<tbody>"]
    out += ["<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows]
    out.append("</tbody></table>")
    return out


def _eval(eval_id: str, eval_name: str | None, runs: list[GradedRun]) -> list[str]:
    name = f"eval {eval_id}" + (f" · {eval_name}" if eval_name else "")
    has_failure = any(e.outcome in FAILED for r in runs for e in r.report.expectations)
    out = [f'<section class="eval{" has-failure" if has_failure else ""}" id="eval-{_e(eval_id)}">',
           f"<h2>{_e(name)}</h2>"]
    out += _side_by_side(runs)
    out += _feedback(runs[0])
    configs: dict[str, list[GradedRun]] = {}
    for run in runs:
        configs.setdefault(run.info.configuration, []).append(run)
    for config, members in configs.items():
        out.append(f'<section class="config"><h3>{_e(config)}</h3>')
        for run in members:
            out += _run(run)
        out.append("</section>")
    out.append("</section>")
    return out


def _side_by_side(runs: list[GradedRun]) -> list[str]:
    """Assertions as rows, runs as columns grouped by configuration: with and
    without the skill next to each other."""
    keys: dict[str, str] = {}
    for run in runs:
        for item in run.report.expectations:
            keys.setdefault(item.key, item.text)
    head = "".join(f'<th title="{_e(r.folder)}">{_e(r.info.configuration)}<br>run {r.info.run_number}</th>'
                   for r in runs)
    out = ['<table class="side-by-side"><thead><tr><th>assertion</th>' + head + "</tr></thead><tbody>"]
    for key, text in keys.items():
        cells = []
        for run in runs:
            found = next((e for e in run.report.expectations if e.key == key), None)
            outcome = found.outcome if found else "absent"
            mark = _MARK.get(outcome, "")
            tip = _LABEL.get(outcome, outcome) + (f": {found.evidence}" if found else "")
            cells.append(f'<td class="cell {outcome}" title="{_e(tip)}">{mark}</td>')
        out.append(f"<tr><td>{_e(key)} {_e(text)}</td>{''.join(cells)}</tr>")
    out.append("</tbody></table>")
    return out


def _feedback(run: GradedRun) -> list[str]:
    feedback = run.report.eval_feedback
    out = [f'<p class="feedback">Eval feedback: {_e(feedback.overall)}</p>']
    if feedback.suggestions:
        out.append('<ul class="feedback">')
        out += [f"<li>{_e((s.assertion + ': ') if s.assertion else '')}{_e(s.reason)}</li>"
                for s in feedback.suggestions]
        out.append("</ul>")
    return out


def _run(run: GradedRun) -> list[str]:
    report, gate = run.report, run.report.gate
    status = run.status
    failed = any(e.outcome in FAILED for e in report.expectations)
    out = [f'<details class="run {status.lower()}{" has-failure" if failed else ""}" open>',
           f'<summary><span class="badge {status.lower()}">{status}</span> {_e(run.folder)} · '
           f"gate {gate.passed}/{gate.total}, all {report.summary.passed}/{report.summary.total}"
           f"{_not_graded_note(report.summary.not_graded)}</summary>"]
    graded = [e for e in report.expectations if e.outcome != "not_graded"]
    ungraded = [e for e in report.expectations if e.outcome == "not_graded"]
    notes = _notes(run)
    out.append('<ol class="assertions">')
    out += [line for item in graded for line in _assertion(run, item, notes.get(item.key, []))]
    out.append("</ol>")
    if ungraded:
        out.append('<div class="not-graded"><h4>Not graded (not a failure, not a pass)</h4><ol class="assertions">')
        out += [line for item in ungraded for line in _assertion(run, item, notes.get(item.key, []))]
        out.append("</ol></div>")
    out += _claims_and_notes(run)
    if report.problems:
        out.append('<ul class="problems">' + "".join(f"<li>{_e(p)}</li>" for p in report.problems) + "</ul>")
    out.append("</details>")
    return out


def _claims_and_notes(run: GradedRun) -> list[str]:
    """What the agent claimed (and whether a tool call bears it out), and its own notes."""
    report = run.report
    out = []
    if report.claims:
        out.append('<h4>Claims</h4><ul class="claims">')
        out += [f'<li class="{"verified" if c.verified else "unverified"}">'
                f'{"✓" if c.verified else "✗"} {_e(c.claim)} <span class="loc">{_e(c.evidence)}</span></li>'
                for c in report.claims]
        out.append("</ul>")
    notes = report.user_notes_summary
    for title, items in (("Uncertainties", notes.uncertainties), ("Needs review", notes.needs_review),
                         ("Workarounds", notes.workarounds)):
        if items:
            out.append(f"<h4>{title} (agent's notes)</h4><ul>" + "".join(f"<li>{_e(i)}</li>" for i in items)
                       + "</ul>")
    return out


def _not_graded_note(count: int) -> str:
    return f", {count} not graded" if count else ""


def _notes(run: GradedRun) -> dict[str, list[str]]:
    """What a reader must see beside each assertion: why the gate leaves it out, that
    it passed vacuously, and the eval's hints about it (matched by its text)."""
    notes: dict[str, list[str]] = {}
    for excluded in run.report.gate.excluded:
        notes.setdefault(excluded.assertion, []).append(f"not counted: {excluded.reason}")
    hints: dict[str, list[str]] = {}
    for tip in run.report.eval_feedback.suggestions:
        hints.setdefault(tip.assertion or "", []).append(f"hint: {tip.reason}")
    for item in run.report.expectations:
        if item.outcome == "pass" and VACUOUS_MARK in item.evidence:
            notes.setdefault(item.key, []).append("passed vacuously: nothing was there to examine")
        notes.setdefault(item.key, []).extend(hints.get(item.text, []))
    return notes


def _assertion(run: GradedRun, item: Expectation, notes: list[str]) -> list[str]:
    outcome = item.outcome
    out = [f'<li class="assertion {outcome}" data-key="{_e(item.key)}">',
           f'<div class="head"><span class="badge {outcome}">{_LABEL[outcome]}</span> '
           f'<span class="key">{_e(item.key)}</span> <span class="text">{_e(item.text)}</span></div>',
           f'<div class="meta">precision {_e(item.precision)} · method {_e(item.method)} · '
           f"evidence from {_e(item.evidence_source)}</div>"]
    out += [f'<div class="note">{_e(note)}</div>' for note in notes]
    out.append(f'<pre class="evidence">{_e(item.evidence)}</pre>')
    if item.check:
        out.append(f'<div class="check"><code>{_e(item.check)}</code> <span class="loc">'
                   f"{_e(item.rules_location)}</span></div>")
    cited = run.cited(item)
    if cited:
        out.append('<table class="source">')
        out += [f'<tr><td class="file">{_e(file)}</td><td class="line">{line}</td>'
                f"<td><code>{_e(text)}</code></td></tr>" for file, line, text in cited]
        out.append("</table>")
    out.append("</li>")
    return out
