"""Runs without a grading.json: one ``grade`` left out, or one whose verdicts are unknown."""

from __future__ import annotations

import os

from referee.engine.report.marker import GROUND_TRUTH
from referee.engine.run.workspace import Run


def should_be_graded(run: Run, graded_evals: set[tuple[int | None, str]]) -> str | None:
    """Why a run without a grading.json was graded, or would be by the rules that
    graded the others; None when nothing says so. It keeps the ground_truth.json
    written beside its grading.json, or another run of its eval (in its iteration)
    has a grading.json, so an eval of the rules matches it: its verdicts are then
    unknown (the file was deleted, or the run added since), never a run to pass
    over. A run of an eval no run was graded in is one ``grade`` leaves out (no eval
    of the rules matches it)."""
    if os.path.lexists(run.path / GROUND_TRUTH):
        return f"it was graded (it has a {GROUND_TRUTH})"
    if (run.id.iteration, run.id.eval_id) in graded_evals:
        return f"other runs of eval {run.id.eval_id} were graded"
    return None
