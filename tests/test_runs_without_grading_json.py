"""A run folder whose grading.json is gone while the run was graded (its
ground_truth.json is still there), or while other runs of its eval were (it was
added since, or its report deleted): its verdicts are unknown, so ``report``
(without a benchmark) never decides PASS over it and ``compare`` lets its eval
vote neither way, as for a grading.json that cannot be read. A run of an eval no
run was graded in is one ``grade`` leaves out (no eval of the rules matches it),
and stays left out."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

from compare_workspace import build, grade, graded, rules
from referee.engine.cli import main

EVAL = "iteration-1/eval-1-task-1"


def _report(workspace: Path, *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["report", str(workspace), "--format", "markdown", "-o", "-", *extra])
    return code, out.getvalue()


def test_a_primary_run_whose_grading_json_was_deleted_is_not_a_pass(tmp_path: Path):
    # with_skill's run 3 failed its gate; its grading.json deleted, the report read
    # runs 1 and 2 alone and said PASS (exit 0).
    workspace = graded(tmp_path, {"with_skill": [["good", "good", "bad"]], "without_skill": [["bad"]]})
    (workspace / EVAL / "with_skill" / "run-3" / "grading.json").unlink()
    code, text = _report(workspace, "--primary", "with_skill")
    assert code == 1
    assert "## referee: FAIL" in text and "1 run not read" in text
    assert "with_skill/run-3: no grading.json, though it was graded (it has a ground_truth.json)" in text


def test_a_run_added_to_a_graded_eval_is_not_a_pass(tmp_path: Path):
    # A run copied in after the grade, with neither report: the eval's other runs
    # were graded, so the rules have an eval for it.
    workspace = graded(tmp_path, {"with_skill": [["good", "good"]]})
    added = workspace / EVAL / "with_skill" / "run-3"
    shutil.copytree(workspace / EVAL / "with_skill" / "run-1" / "outputs", added / "outputs")
    code, text = _report(workspace)
    assert code == 1 and "1 run not read" in text
    assert "run-3: no grading.json, though other runs of eval 1 were graded" in text


def test_a_missing_baseline_run_is_context(tmp_path: Path):
    workspace = graded(tmp_path, {"with_skill": [["good", "good"]], "without_skill": [["bad", "bad"]]})
    (workspace / EVAL / "without_skill" / "run-2" / "grading.json").unlink()
    assert _report(workspace, "--primary", "with_skill")[0] == 0


def test_a_run_of_an_eval_no_rule_covers_is_left_out(tmp_path: Path):
    # Eval 2 has no block in the rules: grade leaves its run without reports, and
    # the report decides on eval 1 alone, as grade's exit code does.
    workspace = build(tmp_path / "ws", {"with_skill": [["good"], ["bad"]]})
    grade(workspace, rules(tmp_path / "one.rules", 1))
    assert not (workspace / "iteration-1/eval-2-task-2/with_skill/run-1/grading.json").exists()
    code, text = _report(workspace)
    assert code == 0 and "not read" not in text
    assert "eval-2-task-2/with_skill/run-1: no grading.json; run `referee grade` first (left out)" in text


def test_compare_lets_an_eval_with_a_deleted_grading_json_vote_tie(tmp_path: Path, capsys):
    # Each eval: with_skill good and bad, without_skill partial: one won, one lost,
    # a tie vote. The bad runs' grading.json deleted, the good runs won every pair
    # and the sign test found with_skill better (exit 0).
    workspace = graded(tmp_path, {"with_skill": [["good", "bad"]] * 5, "without_skill": [["partial"]] * 5})
    for eval_id in range(1, 6):
        (workspace / f"iteration-1/eval-{eval_id}-task-{eval_id}/with_skill/run-2/grading.json").unlink()
    capsys.readouterr()
    assert main(["compare", str(workspace)]) == 1
    summary = json.loads((workspace / "comparison" / "summary.json").read_text(encoding="utf-8"))
    assert summary["sign_test"]["result"] == "underpowered"
    assert summary["evals"][0]["unread_runs"] == ["iteration-1/eval-1-task-1/with_skill/run-2"]
