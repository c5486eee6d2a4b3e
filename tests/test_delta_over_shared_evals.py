"""The delta compares like with like: the primary and the baseline over the evals
both have runs of. An eval run by one side only is left out of the delta, and the
delta says which; with no eval in common there is no delta."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"


def _graded_without(tmp_path: Path, capsys, *gone: str) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    for stale in ("benchmark.json", "benchmark.md"):
        (ws / stale).unlink()
    for folder in gone:
        shutil.rmtree(ws / "iteration-1" / folder)
    assert main(["grade", str(ws), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    capsys.readouterr()
    return ws


def test_no_delta_between_configurations_with_no_eval_in_common(tmp_path, capsys):
    # Input: eval 1 run by with_skill alone, eval 2 by without_skill alone. aggregate
    # gave a delta of +100 points (eval 1's runs against eval 2's) and passed it; now
    # there is no delta and the rule is breached (FAIL, exit 1).
    ws = _graded_without(tmp_path, capsys, "eval-1-book-flight/without_skill", "eval-2-fare-export/with_skill")
    assert main(["aggregate", str(ws), "--primary", "with_skill"]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "no eval has runs of both" in out
    benchmark = json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))
    assert "pass_rate" not in benchmark["run_summary"].get("delta", {})
    assert benchmark["comparisons"][0]["delta"]["pass_rate"] is None


def test_the_delta_leaves_out_an_eval_run_by_one_side_only(tmp_path, capsys):
    # Input: eval 2 run by without_skill alone (0/2). The delta was with_skill's eval 1
    # runs (100%) against without_skill's runs of both evals (22.2%): +77.8 points;
    # now it is over eval 1 alone (100% against 33.3%): +66.7, and says eval 2 is left out.
    ws = _graded_without(tmp_path, capsys, "eval-2-fare-export/with_skill")
    assert main(["aggregate", str(ws), "--primary", "with_skill"]) == 3
    out = capsys.readouterr().out
    assert "+66.7 points of gated pass rate (2 against 2 runs)" in out
    assert "left out: eval 2 (without_skill only)" in out
    benchmark = json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))
    assert benchmark["run_summary"]["delta"]["pass_rate"] == "+0.67"
    assert any("eval 2" in note and "left out of the delta" in note for note in benchmark["notes"])
    assert main(["report", str(ws), "--format", "markdown", "-o", "-"]) == 3


def test_benchmark_names_the_evals_the_delta_leaves_out(tmp_path, capsys):
    # Input: eval 1 run by with_skill alone (2 runs, standard mode needs 3). Its note
    # said "its share of the delta rests on too few runs", of a delta it has no share
    # in, and no field of benchmark.json named the eval left out.
    ws = _graded_without(tmp_path, capsys, "eval-1-book-flight/without_skill")
    assert main(["aggregate", str(ws), "--primary", "with_skill"]) == 3
    capsys.readouterr()
    benchmark = json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))
    assert benchmark["left_out_of_delta"] == [
        {"eval_id": 1, "configuration": "with_skill", "baseline": "without_skill", "runs_of": "with_skill"}]
    thin = [note for note in benchmark["notes"] if "fewer runs" in note]
    assert thin[0].startswith("eval 1 ") and thin[0].endswith("it is left out of the delta")
    assert thin[1].startswith("eval 2 ") and thin[1].endswith("its share of the delta rests on too few runs")


def test_compare_names_the_eval_it_has_no_pair_of(tmp_path, capsys):
    # Input: the same workspace. compare printed eval 2 alone and summary.json named
    # eval 1 nowhere: an eval run by one side dropped out without a word.
    ws = _graded_without(tmp_path, capsys, "eval-1-book-flight/without_skill")
    (tmp_path / "cmp").mkdir()
    assert main(["compare", str(ws), "--out", str(tmp_path / "cmp")]) == 1
    assert "eval 1 (book-flight): runs of with_skill only, no pair: left out" in capsys.readouterr().out
    summary = json.loads((tmp_path / "cmp" / "summary.json").read_text(encoding="utf-8"))
    assert summary["left_out_evals"] == [{"eval_id": "1", "eval_name": "book-flight", "runs_of": "with_skill"}]
    assert [row["eval_id"] for row in summary["evals"]] == ["2"]
