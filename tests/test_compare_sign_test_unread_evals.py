"""The sign test across evals when some evals' votes cannot be told (runs whose
grading.json cannot be read vote tie): a side is found better only when it still is
with every such eval voting for the other side; otherwise the result is "cannot tell",
which is not "primary better" (exit 1, and a breach in aggregate's decision)."""

from __future__ import annotations

import json
from pathlib import Path

from compare_workspace import graded
from referee.engine.cli import main
from referee.engine.compare import signtest


def test_unread_evals_that_could_undo_the_result_make_it_cannot_tell():
    assert signtest.SignTest(5, 0, 1).result == signtest.PRIMARY  # a tie that is a tie
    found = signtest.SignTest(5, 0, 1, unread=1)  # 5 against 1 would be p = 7/64
    assert found.result == signtest.CANNOT_TELL
    assert found.as_dict()["unread"] == 1 and found.as_dict()["result"] == "cannot tell"
    said = found.describe("with_skill", "without_skill")
    assert "1 tied (1 with runs that cannot be read)" in said
    assert "had the 1 eval whose runs cannot be read voted for without_skill, p = 0.109375 (7/64)" in said
    assert signtest.SignTest(0, 5, 1, unread=1).result == signtest.CANNOT_TELL
    assert signtest.SignTest(8, 0, 1, unread=1).result == signtest.PRIMARY  # 8 against 1: p = 9/512
    assert signtest.SignTest(3, 3, 2, unread=2).result == signtest.NO_DIFFERENCE
    assert "unread" not in signtest.SignTest(5, 0, 0).as_dict()


def test_compare_does_not_find_the_primary_better_on_an_eval_it_could_not_read(tmp_path: Path, capsys):
    # Input: 6 evals, with_skill good in 5 and bad in eval 6, without_skill partial:
    # 5 votes for with_skill, 1 for without_skill, p = 7/64, exit 1. Then eval 6's
    # with_skill report broken: eval 6 voted tie, 5 against 0 made p = 1/32 and
    # "PRIMARY BETTER", exit 0, on evidence referee could not read.
    workspace = graded(tmp_path, {"with_skill": [["good"]] * 5 + [["bad"]], "without_skill": [["partial"]] * 6})
    assert main(["compare", str(workspace), "--check"]) == 1
    (workspace / "iteration-1" / "eval-6-task-6" / "with_skill" / "run-1" / "grading.json").write_text(
        "{broken", encoding="utf-8")
    capsys.readouterr()
    assert main(["compare", str(workspace)]) == 1
    out = capsys.readouterr().out
    assert "CANNOT TELL: 5 evals for with_skill, 0 for without_skill, 1 tied (1 with runs that cannot be read)" in out
    summary = json.loads((workspace / "comparison" / "summary.json").read_text(encoding="utf-8"))
    assert summary["sign_test"]["result"] == "cannot tell"
    capsys.readouterr()
    main(["aggregate", str(workspace)])
    assert "COND comparison: with_skill against without_skill (referee compare, 5 pairs): " \
           "5 evals for with_skill, 0 for without_skill, 1 tied (1 with runs that cannot be read); cannot tell" \
        in capsys.readouterr().out  # a breach: "primary better" is the only result that is not
