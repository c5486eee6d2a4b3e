"""The release rules ``pass_rate`` and ``delta`` compare the means with their
thresholds exactly, as fractions of the runs' counts: a mean just below a threshold
is below it, even where benchmark.json's 4 digits round it up to the threshold."""

from __future__ import annotations

import json
from pathlib import Path

from graded_runs import write_run
from referee.engine.cli import main

# Four evals whose gates count 11, 9, 13 and 15 assertions; the runs pass 5, 8, 12 and
# 14 of them: the mean is (5/11 + 8/9 + 12/13 + 14/15) / 4 = 0.799961..., below 0.8,
# which 4 digits write as 0.8.
GATES = ((11, 5), (9, 8), (13, 12), (15, 14))


def _aggregate(workspace: Path) -> tuple[int, dict]:
    config = workspace.parent / "quick.toml"
    config.write_text('mode = "quick"\n', encoding="utf-8")
    code = main(["aggregate", str(workspace), "--release-config", str(config)])
    return code, json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))


def _runs(workspace: Path, config: str, gates) -> None:
    for i, (total, passed) in enumerate(gates, 1):
        for k in (1, 2):
            write_run(workspace / f"eval-{i}" / config / f"run-{k}",
                      ["pass"] * passed + ["fail"] * (total - passed), eval_key=str(i))


def _reason(doc: dict, rule: str) -> dict:
    return next(r for r in doc["release"]["reasons"] if r["rule"] == rule)


def test_a_pass_rate_just_below_the_threshold_is_below_it(tmp_path: Path):
    ws = tmp_path / "ws"
    _runs(ws, "with_skill", GATES)
    code, doc = _aggregate(ws)
    assert doc["run_summary"]["with_skill"]["pass_rate"]["mean"] == 0.8  # as written, 4 digits
    rule = _reason(doc, "pass_rate")
    assert rule["status"] == "fail", rule
    assert "79.996% (mean of 8 runs), below the 80.0% required" in rule["message"]
    assert doc["release"]["decision"] == "FAIL" and code == 1


def test_a_delta_just_below_zero_is_below_it(tmp_path: Path):
    # with_skill as above; without_skill passes 4 of 5 in every run: exactly 0.8. The
    # delta is -0.0039 points, written +0.00: the skill under test is worse.
    ws = tmp_path / "ws"
    _runs(ws, "with_skill", GATES)
    _runs(ws, "without_skill", [(5, 4)] * 4)
    code, doc = _aggregate(ws)
    rule = _reason(doc, "delta")
    assert rule["status"] == "fail", rule
    assert "-0.004 points of gated pass rate" in rule["message"] and "below the +0.0 required" in rule["message"]


def test_a_mean_at_the_threshold_holds_and_reads_as_before(tmp_path: Path):
    ws = tmp_path / "ws"
    _runs(ws, "with_skill", [(5, 2), (1, 1), (1, 1)])  # (0.4 + 1 + 1) / 3 = 0.8 exactly
    code, doc = _aggregate(ws)
    rule = _reason(doc, "pass_rate")
    assert rule["status"] == "ok"
    assert rule["message"] == "with_skill: gated pass rate 80.0% (mean of 6 runs), at least the 80.0% required"
