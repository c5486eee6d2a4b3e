"""timing.json and outputs/metrics.json hold a JSON object (formats.md). One that
is valid JSON of another kind (``[1]``, ``"x"``, ``3``) was taken in silence: no
warning, the hints said that no run has the file at all, and
``not (timing.total_tokens > 100)`` passed vacuously on a file that holds no
figures one can read. Such a file is now unusable, as one that is not JSON: the run
warns naming it, and a check that reads it is an ERROR."""

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

RULES = ('eval 1\nexpect 1: not (timing.total_tokens > 100)\nexpect 2: metrics.total_tool_calls == 1\n'
         'expect 3: no calls to "Bash"\n')


def _run(tmp_path: Path, timing: str, metrics: str) -> Path:
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("done", encoding="utf-8")
    (run / "timing.json").write_text(timing, encoding="utf-8")
    (run / "outputs" / "metrics.json").write_text(metrics, encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    return run


@pytest.mark.parametrize("value", ["[1]", '"x"', "3", "null", "true"])
def test_a_side_file_that_is_no_object_warns_and_is_not_used(tmp_path, value):
    run = _run(tmp_path, value, value)
    main(["grade", str(tmp_path / "eval-1"), "--rules", str(tmp_path / "r.rules")])
    report = json.loads((run / "grading.json").read_text(encoding="utf-8"))
    problems = report["problems"]
    assert [p for p in problems if p.startswith("with_skill/run-1/timing.json") and "object" in p], problems
    assert [p for p in problems if p.startswith("with_skill/run-1/outputs/metrics.json")
            and "object" in p], problems
    outcomes = [item["outcome"] for item in report["expectations"]]
    assert outcomes == ["error", "error", "pass"], report["expectations"]
    assert report["timing"] == {} and report["execution_metrics_source"] == "transcript"
    hints = json.dumps(report["eval_feedback"])
    assert "no run has timing.json" not in hints and "no run has metrics.json" not in hints
    assert "no run has a timing.json with fields" in hints, hints


def test_check_does_not_say_the_file_is_missing(tmp_path, capsys):
    _run(tmp_path, "[1]", '"x"')
    main(["check", str(tmp_path / "r.rules"), "--workspace", str(tmp_path / "eval-1")])
    out = capsys.readouterr()
    shown = out.out + out.err
    assert "no run has timing.json" not in shown and "no run has metrics.json" not in shown, shown


def test_an_object_is_used_as_before(tmp_path):
    run = _run(tmp_path, '{"total_tokens": 5}', '{"total_tool_calls": 1}')
    main(["grade", str(tmp_path / "eval-1"), "--rules", str(tmp_path / "r.rules")])
    report = json.loads((run / "grading.json").read_text(encoding="utf-8"))
    assert [item["outcome"] for item in report["expectations"]] == ["pass", "pass", "pass"]
    assert report["problems"] == []
