"""An item's ``gated`` and the ``gate`` block say the same thing: an item is gated
exactly when the gate counts it."""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORKSPACE = REPO / "examples" / "booking-skill-workspace"


def test_gated_is_true_exactly_for_the_items_the_gate_counts():
    reports = sorted(WORKSPACE.rglob("grading.json"))
    assert reports
    excluded_not_graded = 0
    for path in reports:
        report = json.loads(path.read_text(encoding="utf-8"))
        counted = set(report["gate"]["counted"])
        excluded = {e["assertion"] for e in report["gate"]["excluded"]}
        for item in report["expectations"]:
            assert item["gated"] == (item["key"] in counted), (path, item["key"])
            assert item["gated"] != (item["key"] in excluded), (path, item["key"])
            excluded_not_graded += item["outcome"] == "not_graded"
    assert excluded_not_graded  # the example has semantic items left to a grader


def test_a_not_graded_item_is_not_gated():
    from referee.engine.report.build import exclusion

    assert exclusion("semantic", "not_graded", True) is not None
    assert exclusion("exact_match", "fail", True) is None
    assert exclusion("existence", "pass", False) is not None
