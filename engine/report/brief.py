"""What the main process keeps of a graded run once its files are rendered.

The reports themselves travel as text (``engine.grade``); the terminal lines, the
``--json`` summary and the exit code need only these few fields, so they are
picked out where the report is built and the full document is never sent back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_FAILED = ("fail", "error")


@dataclass(frozen=True)
class Brief:
    """A graded run in short: its identity, counts, and what failed."""

    run: dict[str, Any]  # grading.json's ``run`` block
    summary: dict[str, Any]
    gate: dict[str, Any]
    failed: tuple[dict[str, Any], ...]  # key, text, outcome, evidence of each fail or error


def brief(report: dict[str, Any]) -> Brief:
    """The short form of a grading document (``engine.report.build.grading_document``)."""
    failed = tuple({"key": e["key"], "text": e["text"], "outcome": e["outcome"], "evidence": e["evidence"]}
                   for e in report["expectations"] if e["outcome"] in _FAILED)
    return Brief(run=report["run"], summary=report["summary"], gate=report["gate"], failed=failed)
