"""The release rule ``delta`` when the baseline's gated assertions errored.

An ERROR is a verdict referee could not reach (a transcript it could not read as a
record of calls, say). Counted as a failure of the baseline, it lowers the
baseline's pass rate and so raises the delta: the skill under test would look
better than the baseline because the baseline's evidence could not be read. The
rule holds only when the delta holds whatever those assertions would have been,
that is with each of them taken as a pass."""

from __future__ import annotations

import json
from pathlib import Path

from graded_runs import write_run
from referee.engine.cli import main


def _aggregate(workspace: Path) -> tuple[int, dict]:
    config = workspace.parent / "quick.toml"
    config.write_text('mode = "quick"\n', encoding="utf-8")
    code = main(["aggregate", str(workspace), "--release-config", str(config)])
    return code, json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))


def _reason(doc: dict, rule: str) -> dict:
    return next(r for r in doc["release"]["reasons"] if r["rule"] == rule)


def test_a_delta_that_rests_on_the_baselines_errors_is_not_shown(tmp_path):
    # with_skill: 2 runs, 3 of 4 gated assertions passed in each: 75 %.
    # without_skill: 2 runs, 2 passed and 2 errored in each: 50 % as counted (+25
    # points), 100 % were the errors passes (-25 points). The delta is not shown: the
    # rule `delta` is broken (FAIL), never a PASS on the baseline's unread evidence.
    ws = tmp_path / "ws"
    for k in (1, 2):
        write_run(ws / "eval-1" / "with_skill" / f"run-{k}", ["pass", "pass", "pass", "fail"])
        write_run(ws / "eval-1" / "without_skill" / f"run-{k}", ["pass", "pass", "error", "error"])
    code, doc = _aggregate(ws)
    assert doc["run_summary"]["delta"]["pass_rate"] == "+0.25"  # the figure itself is as counted
    delta = _reason(doc, "delta")
    assert delta["status"] == "fail", delta
    assert "4 errored assertions" in delta["message"] and "-25.0 points" in delta["message"]
    assert doc["release"]["decision"] == "FAIL" and code == 1


def test_a_delta_that_holds_whatever_the_errors_were_holds(tmp_path):
    # with_skill: 100 %. without_skill: 1 passed, 1 errored, 2 failed in each run:
    # 25 % as counted, 50 % at best. +50 points at least: the rule holds, and says
    # the errors were taken into account.
    ws = tmp_path / "ws"
    for k in (1, 2):
        write_run(ws / "eval-1" / "with_skill" / f"run-{k}", ["pass"] * 4)
        write_run(ws / "eval-1" / "without_skill" / f"run-{k}", ["pass", "error", "fail", "fail"])
    code, doc = _aggregate(ws)
    delta = _reason(doc, "delta")
    assert delta["status"] == "ok" and "+75.0 points" in delta["message"]
    assert "2 errored assertions" in delta["message"] and "+50.0" in delta["message"]
    assert doc["release"]["decision"] == "PASS" and code == 0


def test_a_baseline_without_errors_is_judged_as_before(tmp_path):
    ws = tmp_path / "ws"
    for k in (1, 2):
        write_run(ws / "eval-1" / "with_skill" / f"run-{k}", ["pass"] * 2)
        write_run(ws / "eval-1" / "without_skill" / f"run-{k}", ["pass", "fail"])
    code, doc = _aggregate(ws)
    delta = _reason(doc, "delta")
    assert delta["status"] == "ok" and "errored" not in delta["message"] and code == 0
