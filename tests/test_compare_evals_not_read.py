"""``referee compare`` with an eval whose runs of one side (or of both) all have a
grading.json that cannot be read: the eval makes no pair, yet it is an eval of the
comparison whose vote cannot be told. It is listed, votes tie and names its unread
runs, as an eval with some runs unread does, rather than vanish from the summary."""

from __future__ import annotations

import json
from pathlib import Path

from compare_workspace import graded
from referee.engine.cli import main


def _broken(workspace: Path, eval_id: int, config: str, run: int) -> str:
    place = f"iteration-1/eval-{eval_id}-task-{eval_id}/{config}/run-{run}"
    (workspace / place / "grading.json").write_text("{broken", encoding="utf-8")
    return place


def test_an_eval_whose_baseline_runs_are_all_unread_is_listed_as_a_tie(tmp_path: Path, capsys):
    # Input: 6 evals, with_skill good and without_skill bad; eval 6's two baseline
    # reports broken, and eval 5's reports of both sides. Before: evals 5 and 6 were
    # not in summary.json nor printed ("4 evals ..., 0 tied"), their unread runs only
    # in a warning.
    workspace = graded(tmp_path, {"with_skill": [["good"]] * 6, "without_skill": [["bad", "bad"]] * 6})
    unread_6 = [_broken(workspace, 6, "without_skill", run) for run in (1, 2)]
    unread_5 = [_broken(workspace, 5, "with_skill", 1)] + [_broken(workspace, 5, "without_skill", r) for r in (1, 2)]
    capsys.readouterr()
    main(["compare", str(workspace)])
    out = capsys.readouterr().out
    assert ("eval 6 (task-6): 0 won, 0 lost, 0 tied of 0 pairs: vote tie (2 runs whose grading.json cannot be read: "
            f"{', '.join(unread_6)})") in out
    summary = json.loads((workspace / "comparison" / "summary.json").read_text(encoding="utf-8"))
    rows = {row["eval_id"]: row for row in summary["evals"]}
    assert list(rows) == ["1", "2", "3", "4", "5", "6"]
    assert (rows["6"]["vote"], rows["6"]["pairs"], rows["6"]["unread_runs"]) == ("tie", 0, unread_6)
    assert (rows["5"]["vote"], rows["5"]["pairs"], rows["5"]["unread_runs"]) == ("tie", 0, sorted(unread_5))
    assert summary["sign_test"]["votes"] == {"primary": 4, "baseline": 0, "tie": 2}
