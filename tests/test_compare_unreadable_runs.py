"""``referee compare`` when a run of the primary or the baseline has a grading.json
that cannot be read: the run may have won or lost every pair it would be in, so the
pairs that could be decided do not settle its eval, which votes neither way."""

from __future__ import annotations

import json
from pathlib import Path

from compare_workspace import graded
from referee.engine.cli import main


def _broken(workspace: Path, eval_id: int, config: str, run: int) -> None:
    folder = workspace / "iteration-1" / f"eval-{eval_id}-task-{eval_id}" / config / f"run-{run}"
    (folder / "grading.json").write_text("{broken", encoding="utf-8")


def test_an_eval_with_an_unreadable_run_votes_tie(tmp_path: Path, capsys):
    # 5 evals; with_skill's run 1 is good and run 2 bad, without_skill's one run
    # partial: each eval 1 won and 1 lost, a tie vote, UNDERPOWERED (exit 1).
    # The bad runs' grading.json then broken: the good runs alone won every pair and
    # the sign test found with_skill better (p = 1/32, exit 0), on evidence it could
    # not read. Each eval now votes tie and names the run.
    workspace = graded(tmp_path, {"with_skill": [["good", "bad"]] * 5, "without_skill": [["partial"]] * 5})
    assert main(["compare", str(workspace), "--check"]) == 1
    for eval_id in range(1, 6):
        _broken(workspace, eval_id, "with_skill", 2)
    capsys.readouterr()
    assert main(["compare", str(workspace)]) == 1
    out = capsys.readouterr().out
    assert "eval 1 (task-1): 1 won, 0 lost, 0 tied of 1 pair: vote tie (1 run whose grading.json cannot be " \
           "read: iteration-1/eval-1-task-1/with_skill/run-2)" in out
    summary = json.loads((workspace / "comparison" / "summary.json").read_text(encoding="utf-8"))
    assert summary["sign_test"]["result"] == "underpowered"
    assert summary["evals"][0]["unread_runs"] == ["iteration-1/eval-1-task-1/with_skill/run-2"]


def test_an_unreadable_baseline_run_settles_nothing_either(tmp_path: Path, capsys):
    workspace = graded(tmp_path, {"with_skill": [["good"]] * 5, "without_skill": [["bad", "bad"]] * 5})
    assert main(["compare", str(workspace), "--check"]) == 0
    _broken(workspace, 3, "without_skill", 2)
    capsys.readouterr()
    assert main(["compare", str(workspace), "--check"]) == 1  # 4 votes for with_skill: underpowered
    assert "eval 3 (task-3): 1 won, 0 lost, 0 tied of 1 pair: vote tie" in capsys.readouterr().out


def test_readable_runs_vote_as_before(tmp_path: Path):
    workspace = graded(tmp_path, {"with_skill": [["good"]] * 5, "without_skill": [["bad"]] * 5})
    assert main(["compare", str(workspace)]) == 0
    summary = json.loads((workspace / "comparison" / "summary.json").read_text(encoding="utf-8"))
    assert all("unread_runs" not in row for row in summary["evals"])
