"""A timing.json whose ``total_tokens`` is 0 beside a run that took time holds no
count: a model that answered read and wrote tokens. The self-improve workspace
(tests/fixtures/real/self-improve-workspace) drives the Copilot CLI, whose result
carries premium requests and no token counts, and writes ``"total_tokens": 0`` for
runs of 65 and 70 seconds. The benchmark took the 0 as measured: tokens 0.0 in both
configurations and a delta of "+0", as if they had cost the same. It is now left out
of the figures, with a warning naming the file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from referee.engine.cli import main

REAL = Path(__file__).parent / "fixtures" / "real" / "self-improve-workspace"


def _graded(tmp_path: Path, timing: str | None = None) -> Path:
    where = tmp_path / "self-improve-workspace"
    shutil.copytree(REAL, where)
    for file in where.rglob("timing.json") if timing is not None else ():
        file.write_text(timing, encoding="utf-8")
    main(["grade", str(where), "--rules", str(where / "progress.rules"), "--response", "outputs/report.md"])
    return where


def test_zero_tokens_beside_a_run_that_took_time_are_no_count(tmp_path, capsys):
    where = _graded(tmp_path)
    capsys.readouterr()
    main(["aggregate", str(where)])
    err = capsys.readouterr().err
    benchmark = json.loads((where / "benchmark.json").read_text(encoding="utf-8"))
    assert {r["configuration"]: r["result"]["tokens"] for r in benchmark["runs"]} == {"old_skill": None,
                                                                                      "with_skill": None}
    assert {r["configuration"]: r["result"]["time_seconds"] for r in benchmark["runs"]} == {
        "old_skill": 65.637, "with_skill": 69.776}
    assert benchmark["run_summary"]["delta"].get("tokens") != "+0"
    assert "with_skill/run-1/timing.json: total_tokens is 0" in err, err


def test_zero_tokens_of_a_run_that_took_no_time_are_kept(tmp_path, capsys):
    # Nothing says the 0 is not a count: kept as written.
    where = _graded(tmp_path, '{"total_tokens": 0}')
    capsys.readouterr()
    main(["aggregate", str(where)])
    benchmark = json.loads((where / "benchmark.json").read_text(encoding="utf-8"))
    assert [r["result"]["tokens"] for r in benchmark["runs"]] == [0, 0]
