"""What ``referee grade`` prints for people: a line per run, the failures, a total.

Colour only on a terminal and never when ``NO_COLOR`` is set (https://no-color.org);
progress goes to stderr: a bar on a terminal, a line per tenth of the runs elsewhere.
"""

from __future__ import annotations

import sys
import time
from typing import Callable, Iterable, Sequence, TextIO

from referee.dsl.frozen import frozen
from referee.engine.report.brief import Brief
from referee.engine.report.build import VACUOUS_NOTE, gate_status
from referee.engine.report.color import paint
from referee.engine.report.inert import line_start

VACUOUS_MARK = f"({VACUOUS_NOTE})"  # how the evidence of a vacuous pass ends

EVIDENCE_WIDTH = 200
SHOWN_WARNINGS = 5  # a run's warnings shown under its line, unless --verbose


def run_status(report: Brief) -> str:
    """PASS: every counted assertion passed; FAIL: one did not; EMPTY: none counted."""
    return gate_status(report.gate["passed"], report.gate["total"])


def run_lines(report: Brief, note: str, color: bool, full: dict | None = None,
              verbose: bool = False, warnings: Sequence[str] = (), hints: bool = True) -> list[str]:
    """The run's line, its ``warnings`` (what referee could not read or distrusts in
    it), then what a reader must see under it.

    With ``full`` (the run's grading.json as a dict, or ``RunReport.shown`` of it):
    every failed or errored assertion (those the gate does not count say so), every
    vacuous pass, and, with ``hints``, the eval's feedback on an assertion right
    under that assertion (an eval's hints are the same in all its runs: a caller
    shows them once per eval); with ``verbose``, every assertion, whole evidence and
    every warning. Without ``full``, the counted failures.
    """
    status = run_status(report)
    summary, gate = report.summary, report.gate
    extra = f", {summary['not_graded']} not graded" if summary["not_graded"] else ""
    head = (f"{paint(f'{status:<5}', status, color)} {on_its_line(report.run['path'])}  "
            f"gate {gate['passed']}/{gate['total']}, all {summary['passed']}/{summary['total']}{extra}")
    lines = [head + (f"  ({note})" if note else "")] + _warning_lines(warnings, color, verbose)
    if full is None:
        counted = set(gate["counted"])
        for item in report.failed:
            if item["key"] in counted:
                lines += _item_lines("x", "FAIL", item, (), color, verbose)
        return lines
    excluded = {x["assertion"]: x["reason"] for x in full["gate"]["excluded"]}
    tips: dict[str, list[str]] = {}
    for tip in (full.get("eval_feedback") or {}).get("suggestions", []) if hints else ():
        tips.setdefault(tip.get("assertion") or "", []).append(tip["reason"])
    for item in full["expectations"]:
        lines += _expectation_lines(item, excluded.get(item["key"]), tips.get(item["text"], []), color, verbose)
    return lines


def _warning_lines(warnings: Sequence[str], color: bool, verbose: bool) -> list[str]:
    shown = warnings if verbose else warnings[:SHOWN_WARNINGS]
    lines = [paint(f"      warning: {on_its_line(w) if verbose else _shorten(w, EVIDENCE_WIDTH)}", "EMPTY", color)
             for w in shown]
    if len(warnings) > len(shown):
        lines.append(paint(f"      ... and {len(warnings) - len(shown)} more warnings (--verbose shows them; "
                           "referee show RUN tells where)", "EMPTY", color))
    return lines


_MARKS = {"pass": ("ok", "PASS"), "fail": ("x", "FAIL"), "error": ("!", "FAIL"), "not_graded": ("?", "dim")}


def _expectation_lines(item: dict, excluded: str | None, tips: list[str], color: bool,
                       verbose: bool) -> list[str]:
    outcome = item["outcome"]
    vacuous = outcome == "pass" and VACUOUS_MARK in item["evidence"]
    failed = outcome in ("fail", "error")
    if not (verbose or failed or vacuous or (tips and outcome != "not_graded")):
        return []
    mark, style = _MARKS[outcome]
    if vacuous:
        mark, style = "~", "EMPTY"
    notes = [f"hint: {tip}" for tip in tips]
    if failed and excluded:
        notes.append(f"not counted toward the gate: {excluded}")
    if vacuous and not tips:
        notes.append("passed vacuously: nothing was there to examine")
    return _item_lines(mark, style, item, notes, color, verbose)


def _item_lines(mark: str, style: str, item: dict, notes: Sequence[str], color: bool, verbose: bool) -> list[str]:
    evidence = (item["evidence"] if verbose else _shorten(item["evidence"], EVIDENCE_WIDTH)).removesuffix("\n")
    # The sentence may come from the workspace (eval_metadata.json's expectations): on its line too.
    lines = [f"      {paint(mark, style, color)} {on_its_line(item['key'])} {on_its_line(item['text'])}"]
    lines += [paint(f"          {on_its_line(note)}", "EMPTY", color) for note in notes]
    lines.append(paint(line_start(f"          {on_its_line(evidence)}"), "dim", color))
    return lines


def on_its_line(text: str) -> str:
    """``text`` (inert already) on the line it belongs to: a line break in it written
    as ``\\n``. Names from the run hold them (a folder or file the agent named
    ``"x\\n::add-mask::FAIL"``), and evidence and hints quote those names: printed
    as they are, the rest would start a line that reads as referee's, or as a
    workflow command in a CI log (the runner reads one at the start of any line,
    after leading blanks). Other characters a terminal breaks at are escaped by
    ``inert``; those it does not (U+2028 in a quoted argument) stay as they are."""
    return text.replace("\n", "\\n")


@frozen
class Totals:
    runs: int
    passed_runs: int
    failed_runs: int
    empty_runs: int
    refused_runs: int
    gate_passed: int
    gate_total: int
    passed: int
    total: int
    not_graded: int
    errors: int


def totals(reports: Iterable[Brief], refused: int) -> Totals:
    """The counts of the end line, in one pass (``reports`` may read each brief anew)."""
    tally = Tally()
    for report in reports:
        tally.add(report)
    return tally.totals(refused)


class Tally:
    """The counts of the end line, taken a brief at a time as the runs go by."""

    def __init__(self) -> None:
        self._counts = dict.fromkeys(("runs", "PASS", "FAIL", "EMPTY", "gate_passed", "gate_total", "passed",
                                      "total", "not_graded", "errors"), 0)

    def add(self, report: Brief) -> Brief:
        """Count ``report`` in; it is given back, so that a stream of briefs counts as it goes."""
        counts = self._counts
        counts["runs"] += 1
        counts[run_status(report)] += 1
        counts["gate_passed"] += report.gate["passed"]
        counts["gate_total"] += report.gate["total"]
        for key in ("passed", "total", "not_graded", "errors"):
            counts[key] += report.summary[key]
        return report

    def totals(self, refused: int) -> Totals:
        """The counts so far, with ``refused`` runs not written."""
        counts = self._counts
        return Totals(
            runs=counts["runs"], passed_runs=counts["PASS"], failed_runs=counts["FAIL"],
            empty_runs=counts["EMPTY"], refused_runs=refused, gate_passed=counts["gate_passed"],
            gate_total=counts["gate_total"], passed=counts["passed"], total=counts["total"],
            not_graded=counts["not_graded"], errors=counts["errors"],
        )


def _statuses(t: Totals) -> str:
    parts = [f"{t.passed_runs} passed", f"{t.failed_runs} failed"]
    if t.empty_runs:
        parts.append(f"{t.empty_runs} with nothing counted")
    if t.refused_runs:
        parts.append(f"{t.refused_runs} not written")
    return ", ".join(parts)


def total_line(t: Totals, color: bool) -> str:
    line = (f"total: {_runs(t.runs)} ({_statuses(t)}); gated assertions {t.gate_passed}/{t.gate_total} "
            f"passed; all graded {t.passed}/{t.total}")
    if t.errors:
        line += f", {t.errors} errors"
    if t.not_graded:
        line += f"; {t.not_graded} semantic not graded (no --llm)"
    style = "PASS" if t.gate_total and t.gate_passed == t.gate_total and not t.refused_runs else "FAIL"
    return paint(line, style, color)


def unread_line(not_read: Sequence[str]) -> str:
    """Why a gate does not pass though every assertion it counts may have: the run
    folders it counts that could not be read, made inert (no outputs/ folder, or a
    folder holding one under a name that is no run-<n>: each folder's warning says which)."""
    folders = "run folder" if len(not_read) == 1 else "run folders"
    return (f"not a pass: {len(not_read)} {folders} the gate counts could not be read (see the warnings): "
            f"{_some(not_read, str)}")


def no_runs_line(keys: Sequence[str]) -> str:
    """Why a gate does not pass though every assertion it counts may have: evals the
    rules check that no run graded (their runs missing, or named otherwise)."""
    evals = "eval" if len(keys) == 1 else "evals"
    return (f"not a pass: the rules check {evals} {_some(keys, repr)}, which no run graded matches (their runs "
            "missing, or named otherwise: see referee show); grade some evals alone with --eval")


SHOWN_FOLDERS = 20  # the folders or evals a 'not a pass' line names; the rest are counted


def _some(names: Sequence[str], shown: Callable[[str], str]) -> str:
    """The first ``SHOWN_FOLDERS`` of ``names``, made inert and shown so, and how many more."""
    from referee.engine.report.inert import inert

    listed = ", ".join(shown(inert(name)) for name in names[:SHOWN_FOLDERS])
    return listed + (f" and {len(names) - SHOWN_FOLDERS} more" if len(names) > SHOWN_FOLDERS else "")


def gate_line(primary: str, t: Totals, color: bool) -> str:
    """What ``--primary`` gates on: that configuration's runs alone."""
    line = (f"gate: {primary} alone: {t.passed_runs} of {_runs(t.runs)} passed; gated assertions "
            f"{t.gate_passed}/{t.gate_total} passed")
    return paint(line, "PASS" if t.gate_total and t.gate_passed == t.gate_total else "FAIL", color)


def context_line(config: str, t: Totals, primary: str, color: bool) -> str:
    """Another configuration's runs, as context: not a failure of the gate."""
    line = (f"context  {on_its_line(config)}: {_runs(t.runs)} ({_statuses(t)}); "
            f"gated assertions {t.gate_passed}/{t.gate_total} passed; not in the gate (--primary {primary})")
    return paint(line, "dim", color)


def _runs(count: int) -> str:
    return f"{count} run" + ("" if count == 1 else "s")


class ProgressBar:
    """Progress on stderr. On a terminal, a one-line bar redrawn at most ten times a
    second. Elsewhere (a CI log) a line each time another tenth of the runs is done:
    which lines are printed depends on the number of runs alone, never on the clock,
    so a log shows steady progress and the same lines on every machine. Nothing for
    fewer than ``minimum`` runs."""

    def __init__(self, label: str, stream: TextIO | None = None, minimum: int = 20) -> None:
        self.stream = stream or sys.stderr
        self.label = label
        self.minimum = minimum
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if total < self.minimum:
            return
        if not self.enabled:
            if done * 10 // total > (done - 1) * 10 // total:  # another tenth is done
                self.stream.write(f"{self.label}: {done}/{total} runs ({done * 100 // total}%)\n")
                self.stream.flush()
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = width * done // total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._drawn = False


def _shorten(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
