"""A timing.json that times the grading too is no measure of the run by its total.

The nabledge-test run (tests/fixtures/real/nabledge-test-workspace) keeps a
timing.json with ``executor_duration_seconds`` 52.0, ``grader_duration_seconds`` 21.0
(its grader started a minute after the executor ended) and ``total_duration_seconds``
73.0, their sum, as skill-creator's grading.json defines it. The benchmark took the
total: 73 s, the run's own 52 s and 21 s of another grader's work, so a configuration
graded by a slower grader looked slower. The run's time is now the executor's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from referee.engine.cli import main

REAL = Path(__file__).parent / "fixtures" / "real" / "nabledge-test-workspace"
RUN = "eval-processing-005-183659/with_skill"


def _aggregated(tmp_path: Path, timing: dict | None = None) -> dict:
    where = tmp_path / "nabledge-test-workspace"
    shutil.copytree(REAL, where)
    if timing is not None:
        (where / RUN / "timing.json").write_text(json.dumps(timing), encoding="utf-8")
    main(["grade", str(where), "--rules", str(where / "batch.rules"), "--force"])
    main(["aggregate", str(where)])
    return json.loads((where / "benchmark.json").read_text(encoding="utf-8"))


def test_the_run_takes_the_executors_time_not_the_graders_too(tmp_path, capsys):
    benchmark = _aggregated(tmp_path)
    assert [run["result"]["time_seconds"] for run in benchmark["runs"]] == [52.0]
    assert benchmark["run_summary"]["with_skill"]["time_seconds"]["mean"] == 52.0


def test_a_total_alone_is_the_runs_time(tmp_path, capsys):
    # skill-creator's harness writes the executor's time as the total: nothing else to take.
    benchmark = _aggregated(tmp_path, {"total_duration_seconds": 41.5, "total_tokens": 900})
    assert [run["result"]["time_seconds"] for run in benchmark["runs"]] == [41.5]


def test_an_executor_time_that_is_no_number_leaves_the_total(tmp_path, capsys):
    benchmark = _aggregated(tmp_path, {"executor_duration_seconds": "52", "total_duration_seconds": 73.0})
    assert [run["result"]["time_seconds"] for run in benchmark["runs"]] == [73.0]
