"""grading.json's ``execution_metrics`` as skill-creator's aggregator reads it: it
takes ``total_tool_calls``, ``errors_encountered`` and ``output_chars`` (as tokens
when timing.json gives none) and sums and averages them. A metrics.json whose
counts are not numbers (``"3"``, ``null``) was copied as it was, and the aggregator
stopped with a TypeError on the grading.json referee wrote. Such a file is not used
for the copy: the metrics are computed from the run, and the run says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

TRANSCRIPT = """## [tool_calls] Step 1: Read
Tool: Read
Args: {"path": "a"}
Return: "ok"
Status: success
"""

RULES = 'eval 1\nexpect "no bash": no calls to "Bash"\n'


def _graded(tmp_path: Path, metrics: dict) -> dict:
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("done", encoding="utf-8")
    (run / "outputs" / "metrics.json").write_text(json.dumps(metrics), encoding="utf-8")
    (rules := tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(tmp_path / "eval-1"), "--rules", str(rules)]) == 0
    return json.loads((run / "grading.json").read_text(encoding="utf-8"))


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@pytest.mark.parametrize("field, value", [("total_tool_calls", "3"), ("output_chars", None),
                                          ("errors_encountered", [1]), ("output_chars", True)])
def test_counts_that_are_not_numbers_are_not_copied(tmp_path, field, value):
    given = {"tool_calls": {"Read": 1}, "total_tool_calls": 1, "errors_encountered": 0, "output_chars": 4}
    report = _graded(tmp_path, {**given, field: value})
    metrics = report["execution_metrics"]
    for key in ("total_tool_calls", "output_chars", "errors_encountered"):
        assert _is_number(metrics.get(key, 0)), (key, metrics)
    assert report["execution_metrics_source"] == "transcript"
    assert any("metrics.json" in p and field in p for p in report["problems"]), report["problems"]


def test_a_metrics_json_with_number_counts_is_copied(tmp_path):
    # counts as the transcript holds them: counting calls it lacks leaves the run's calls unknown
    given = {"tool_calls": {"Read": 1}, "total_tool_calls": 1, "output_chars": 1.5, "custom": "kept"}
    report = _graded(tmp_path, given)
    assert report["execution_metrics"] == given
    assert report["execution_metrics_source"] == "metrics.json"
    assert report["problems"] == []
