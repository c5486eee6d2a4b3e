"""What ``referee grade`` prints for people: a line per run, the failures, a total.

Colour only on a terminal and never when ``NO_COLOR`` is set (https://no-color.org);
the progress bar goes to stderr, only when stderr is a terminal.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import Sequence, TextIO

from referee.engine.report.brief import Brief

_COLORS = {"PASS": "32", "FAIL": "31", "EMPTY": "33", "REFUSED": "35", "dim": "2"}
EVIDENCE_WIDTH = 200


def use_color(stream: TextIO) -> bool:
    """True on a terminal, unless NO_COLOR is set (to anything) or TERM is dumb."""
    if os.environ.get("NO_COLOR", "") != "" or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def paint(text: str, style: str, color: bool) -> str:
    return f"\033[{_COLORS[style]}m{text}\033[0m" if color and style in _COLORS else text


def run_status(report: Brief) -> str:
    """PASS: every counted assertion passed; FAIL: one did not; EMPTY: none counted."""
    gate = report.gate
    if gate["total"] == 0:
        return "EMPTY"
    return "PASS" if gate["passed"] == gate["total"] else "FAIL"


def run_lines(report: Brief, note: str, color: bool) -> list[str]:
    """The run's line, then one line per failed or errored assertion that counts."""
    status = run_status(report)
    summary, gate = report.summary, report.gate
    extra = f", {summary['not_graded']} not graded" if summary["not_graded"] else ""
    head = (f"{paint(f'{status:<5}', status, color)} {report.run['path']}  "
            f"gate {gate['passed']}/{gate['total']}, all {summary['passed']}/{summary['total']}{extra}")
    lines = [head + (f"  ({note})" if note else "")]
    counted = set(gate["counted"])
    for item in report.failed:
        if item["key"] in counted:
            evidence = _shorten(item["evidence"], EVIDENCE_WIDTH)
            lines.append(f"      {paint('x', 'FAIL', color)} {item['key']} {item['text']}")
            lines.append(paint(f"          {evidence}", "dim", color))
    return lines


@dataclass(frozen=True)
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


def totals(reports: Sequence[Brief], refused: int) -> Totals:
    statuses = [run_status(r) for r in reports]
    return Totals(
        runs=len(reports), passed_runs=statuses.count("PASS"), failed_runs=statuses.count("FAIL"),
        empty_runs=statuses.count("EMPTY"), refused_runs=refused,
        gate_passed=sum(r.gate["passed"] for r in reports), gate_total=sum(r.gate["total"] for r in reports),
        passed=sum(r.summary["passed"] for r in reports), total=sum(r.summary["total"] for r in reports),
        not_graded=sum(r.summary["not_graded"] for r in reports),
        errors=sum(r.summary["errors"] for r in reports),
    )


def total_line(t: Totals, color: bool) -> str:
    runs = f"{t.runs} run" + ("" if t.runs == 1 else "s")
    parts = [f"{t.passed_runs} passed", f"{t.failed_runs} failed"]
    if t.empty_runs:
        parts.append(f"{t.empty_runs} with nothing counted")
    if t.refused_runs:
        parts.append(f"{t.refused_runs} not written")
    line = (f"total: {runs} ({', '.join(parts)}); gated assertions {t.gate_passed}/{t.gate_total} "
            f"passed; all graded {t.passed}/{t.total}")
    if t.errors:
        line += f", {t.errors} errors"
    if t.not_graded:
        line += f"; {t.not_graded} semantic not graded (no --llm)"
    style = "PASS" if t.gate_total and t.gate_passed == t.gate_total and not t.refused_runs else "FAIL"
    return paint(line, style, color)


class ProgressBar:
    """A one-line bar on stderr, redrawn at most ten times a second; silent off a TTY."""

    def __init__(self, label: str, stream: TextIO | None = None, minimum: int = 20) -> None:
        self.stream = stream or sys.stderr
        self.label = label
        self.minimum = minimum
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < self.minimum:
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
