"""grading.json's ``timing`` and ``execution_metrics`` hold only figures that
skill-creator's aggregator (``scripts/aggregate_benchmark.py``) can sum, average and
square, and that ``referee aggregate`` counts too.

The aggregator takes ``execution_metrics.output_chars`` as a run's tokens when
timing.json gives none, and ``timing.total_duration_seconds`` as its time; it divides
their sum by the runs (a float) and squares each one's distance from the mean. An
integer of hundreds of digits stops the division (OverflowError), a float above about
1e154 stops the square, and a negative figure is averaged in. ``referee aggregate``
leaves such a figure out (negative, or above 2^53 where JSON numbers stop being
exact), so grading.json leaves it out too, and says why.
"""

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
HUGE = "1" + "0" * 400
LARGEST = 2 ** 53


def _graded(tmp_path: Path, timing: str | None = None, metrics: str | None = None) -> dict:
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("done", encoding="utf-8")
    if timing is not None:
        (run / "timing.json").write_text(timing, encoding="utf-8")
    if metrics is not None:
        (run / "outputs" / "metrics.json").write_text(metrics, encoding="utf-8")
    (rules := tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(tmp_path / "eval-1"), "--rules", str(rules)]) == 0
    return json.loads((run / "grading.json").read_text(encoding="utf-8"))


def _summable(value) -> bool:
    # what the aggregator can add up, average and square, and referee aggregate counts
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= LARGEST


@pytest.mark.parametrize("field, value", [("total_duration_seconds", HUGE), ("total_duration_seconds", "1e300"),
                                          ("total_duration_seconds", "-4.5"), ("total_tokens", HUGE),
                                          ("duration_ms", str(LARGEST + 2))])
def test_timing_figures_out_of_range_are_not_copied(tmp_path, field, value):
    given = {"total_tokens": 120, "duration_ms": 41300, "total_duration_seconds": 41.3}
    del given[field]
    report = _graded(tmp_path, timing=json.dumps(given)[:-1] + f', "{field}": {value}}}')
    timing = report["timing"]
    assert field not in timing, timing
    assert timing == given
    assert [p for p in report["problems"] if "timing.json" in p and field in p], report["problems"]


@pytest.mark.parametrize("field, value", [("output_chars", HUGE), ("output_chars", "1e300"),
                                          ("total_tool_calls", "-1"), ("errors_encountered", HUGE)])
def test_metrics_counts_out_of_range_are_not_copied(tmp_path, field, value):
    given = {"tool_calls": {"Read": 1}, "total_tool_calls": 1, "errors_encountered": 0, "output_chars": 4}
    del given[field]
    report = _graded(tmp_path, metrics=json.dumps(given)[:-1] + f', "{field}": {value}}}')
    metrics = report["execution_metrics"]
    assert all(_summable(metrics[k]) for k in ("total_tool_calls", "errors_encountered", "output_chars")), metrics
    assert report["execution_metrics_source"] == "transcript"
    assert [p for p in report["problems"] if "metrics.json" in p and field in p], report["problems"]


def test_figures_in_range_are_copied_as_they_are(tmp_path):
    timing = {"total_tokens": LARGEST, "duration_ms": 0, "total_duration_seconds": 0.5}
    report = _graded(tmp_path, timing=json.dumps(timing))
    assert report["timing"] == timing
    assert report["problems"] == []
