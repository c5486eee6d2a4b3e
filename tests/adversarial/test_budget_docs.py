"""docs/limits.md states the limits the code enforces: each figure is checked here."""

from __future__ import annotations

from pathlib import Path

from referee.engine import budget, caps, regexes
from referee.engine.critique import runner
from referee.engine.checks.jsonpath_budget import MAX_RESULTS
from referee.engine.report import lock
from referee.engine.run import safejson

DOC = (Path(__file__).resolve().parents[2] / "docs" / "limits.md").read_text(encoding="utf-8")
FLAT = " ".join(DOC.split())


def test_the_figures_of_the_doc_are_the_code_s():
    stated = [
        f"{budget.DEFAULT_STEPS:,} steps", f"{MAX_RESULTS:,} values",
        f"longer than {regexes.BACKTRACK_TEXT_LIMIT:,} characters",
        f"({budget.DEFAULT_TIME_LIMIT:g} s unless set", budget.TIME_LIMIT_VARIABLE,
        f"a budget of {runner.DEFAULT_BUDGET:,} units",
        f"more than {safejson.MAX_NUMBER_CHARS:,} characters", f"beyond 1e±{safejson.MAX_EXPONENT}",
        f"cut to {caps.MESSAGE_LIMIT:,} characters", f"a detail to {caps.DETAIL_LIMIT}",
        f"a quote to {caps.QUOTE_LIMIT}", f"the first {caps.EVIDENCE_KEPT}",
        f"waits up to {lock.WAIT_SECONDS:g} s",
    ]
    missing = [figure for figure in stated if figure not in FLAT]
    assert not missing, missing
