"""What the terminal, ``--json`` and the totals need of a graded run: its brief.

Made from the run's report by ``engine.report.run_report.RunReport.brief``.
"""

from __future__ import annotations

from typing import Any

from referee.dsl.frozen import frozen


@frozen
class Brief:
    """A graded run in short: its identity, counts, and what failed."""

    run: dict[str, Any]  # grading.json's ``run`` block
    summary: dict[str, Any]
    gate: dict[str, Any]
    failed: tuple[dict[str, Any], ...]  # key, text, outcome, evidence of each fail or error
