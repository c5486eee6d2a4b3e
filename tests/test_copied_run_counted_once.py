"""A run folder copied after its grade is not a run of its own: its grading.json
records the place and the files of the run it was copied from. ``aggregate``,
``report`` and ``compare`` refuse the workspace (exit 2), naming both folders,
instead of counting the same verdicts twice; a folder renamed since the grade
(its grading.json names a place no other run records) is still read."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"


def _graded(tmp_path: Path, capsys) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    for stale in ("benchmark.json", "benchmark.md"):
        (ws / stale).unlink()
    assert main(["grade", str(ws), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    capsys.readouterr()
    return ws


def _copied(tmp_path: Path, capsys) -> Path:
    ws = _graded(tmp_path, capsys)
    configuration = ws / "iteration-1" / "eval-1-book-flight" / "with_skill"
    shutil.copytree(configuration / "run-1", configuration / "run-3")
    return ws


def test_aggregate_refuses_a_run_copied_after_its_grade(tmp_path, capsys):
    # Input: with_skill/run-1 copied to run-3 after the grade. aggregate counted 4
    # with_skill runs, run-1's verdicts twice; now it stops (exit 2), naming both.
    ws = _copied(tmp_path, capsys)
    assert main(["aggregate", str(ws), "--check"]) == 2
    err = capsys.readouterr().err
    assert "with_skill/run-3" in err and "with_skill/run-1" in err and "copy" in err


def test_report_and_compare_refuse_a_run_copied_after_its_grade(tmp_path, capsys):
    ws = _copied(tmp_path, capsys)
    assert main(["report", str(ws), "--format", "markdown", "-o", "-"]) == 2
    assert "with_skill/run-3" in capsys.readouterr().err
    assert main(["compare", str(ws), "--check"]) == 2
    assert "with_skill/run-3" in capsys.readouterr().err


def test_a_configuration_renamed_since_the_grade_is_still_read(tmp_path, capsys):
    ws = _graded(tmp_path, capsys)
    for eval_dir in sorted((ws / "iteration-1").iterdir()):
        if eval_dir.is_dir():
            (eval_dir / "without_skill").rename(eval_dir / "baseline")
    assert main(["aggregate", str(ws), "--check", "--primary", "with_skill", "--baseline", "baseline"]) == 3
    assert "over 3 runs" in capsys.readouterr().out
    assert main(["compare", str(ws), "--check", "--primary", "with_skill", "--baseline", "baseline"]) == 1
    capsys.readouterr()


def test_a_copy_graded_again_is_a_run_of_its_own(tmp_path, capsys):
    ws = _copied(tmp_path, capsys)
    assert main(["grade", str(ws), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    capsys.readouterr()
    assert main(["aggregate", str(ws), "--check"]) == 3
    assert "over 4 runs" in capsys.readouterr().out


def test_an_iteration_copied_whole_with_its_grades_is_not_read_as_its_own(tmp_path, capsys):
    # Input: iteration-1 copied to iteration-2 after the grade, and never graded there.
    # aggregate read iteration 2 and decided CONDITIONAL PASS (exit 3) from iteration
    # 1's grades, saying nothing; compare read them too. Each grading.json records its
    # run's place in iteration 1: now each run is left out, named with that place, and
    # with none left aggregate and compare stop (exit 2); report shows iteration 1 alone.
    ws = _graded(tmp_path, capsys)
    shutil.copytree(ws / "iteration-1", ws / "iteration-2")
    assert main(["aggregate", str(ws), "--check"]) == 2
    err = capsys.readouterr().err
    assert ("iteration-2/eval-1-book-flight/with_skill/run-1: grading.json is the grade of "
            "iteration-1/eval-1-book-flight/with_skill/run-1") in err
    assert main(["compare", str(ws), "--check"]) == 2
    assert "is the grade of iteration-1/" in capsys.readouterr().err
    assert main(["report", str(ws), "--format", "junit", "-o", "-"]) == 1
    out, err = capsys.readouterr()
    assert "iteration-2/" not in out and err.count("(left out)") == 6
    assert main(["aggregate", str(ws), "--check", "--iteration", "1"]) == 3


def test_an_iteration_copied_and_graded_again_is_read(tmp_path, capsys):
    ws = _graded(tmp_path, capsys)
    shutil.copytree(ws / "iteration-1", ws / "iteration-2")
    assert main(["grade", str(ws / "iteration-2"), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    assert main(["aggregate", str(ws), "--check"]) == 3
    assert main(["compare", str(ws), "--check"]) == 1
    capsys.readouterr()


def test_many_copies_are_counted_past_the_first_three(tmp_path, capsys):
    ws = _graded(tmp_path, capsys)
    for configuration in sorted((ws / "iteration-1").glob("*/*_skill")):
        shutil.copytree(configuration / "run-1", configuration / "run-9")
    assert main(["aggregate", str(ws), "--check"]) == 2
    err = capsys.readouterr().err
    assert err.count("are one graded run") == 3 and "and 1 more such runs" in err


def test_an_iteration_copied_after_a_grade_of_the_folder_above_is_told_too(tmp_path, capsys):
    # A grade of the folder above the workspace records each place below that folder
    # (ws/iteration-1/...): the copy in iteration-2 is told all the same.
    ws = tmp_path / "above" / "ws"
    shutil.copytree(EXAMPLE, ws)
    for stale in ("benchmark.json", "benchmark.md"):
        (ws / stale).unlink()
    assert main(["grade", str(tmp_path / "above"), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    assert main(["aggregate", str(ws), "--check"]) == 3
    shutil.copytree(ws / "iteration-1", ws / "iteration-2")
    capsys.readouterr()
    assert main(["aggregate", str(ws), "--check"]) == 2
    assert "is the grade of iteration-1/eval-1-book-flight/with_skill/run-1" in capsys.readouterr().err
