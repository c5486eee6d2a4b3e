"""grading.json's ``timing`` as skill-creator's aggregator reads it: it takes
``timing.total_duration_seconds`` (and, from timing.json, ``total_tokens``) and sums
and averages them. A timing.json whose figures are not numbers (``"41.3"``,
``null``, ``NaN``) was copied as it was, and the aggregator stopped with a TypeError
on the grading.json referee wrote. Such a figure is not copied, and the run says
why, naming the file and the field; the other fields are copied as before."""

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


def _graded(tmp_path: Path, timing: str) -> tuple[dict, bytes]:
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("done", encoding="utf-8")
    (run / "timing.json").write_text(timing, encoding="utf-8")
    (rules := tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(tmp_path / "eval-1"), "--rules", str(rules)]) == 0
    written = (run / "grading.json").read_bytes()
    return json.loads(written), written


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@pytest.mark.parametrize("field, value", [("total_duration_seconds", '"41.3"'), ("total_duration_seconds", "null"),
                                          ("total_duration_seconds", "NaN"), ("total_tokens", "[1]"),
                                          ("duration_ms", "true"), ("total_tokens", "Infinity")])
def test_figures_that_are_not_numbers_are_not_copied(tmp_path, field, value):
    given = {"total_tokens": 120, "duration_ms": 41300, "total_duration_seconds": 41.3, "executor_start": "t0"}
    del given[field]
    text = json.dumps(given)[:-1] + f', "{field}": {value}}}'
    report, _ = _graded(tmp_path, text)
    timing = report["timing"]
    assert field not in timing, timing
    assert all(_is_number(v) for k, v in timing.items() if k != "executor_start"), timing
    assert timing["executor_start"] == "t0"
    assert [p for p in report["problems"] if "timing.json" in p and field in p], report["problems"]


def test_the_same_timing_gives_the_same_bytes(tmp_path):
    text = '{"total_duration_seconds": "41.3", "total_tokens": null}'
    _, first = _graded(tmp_path / "a", text)
    _, second = _graded(tmp_path / "b", text)
    assert first == second


def test_a_timing_json_with_number_figures_is_copied(tmp_path):
    given = {"total_tokens": 120, "duration_ms": 41300, "total_duration_seconds": 41.3, "custom": "kept"}
    report, _ = _graded(tmp_path, json.dumps(given))
    assert report["timing"] == given
    assert report["problems"] == []
