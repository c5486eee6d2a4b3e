"""Runs given to ``referee.grade`` already built are refused when two of them are one
run in the reports (the same path, or the same run number of one configuration of an
eval in one iteration), as ``referee grade`` refuses a workspace where a run would
stand for another (``run-number-taken``): a clean run's PASS would be reported in
the place of a FAIL."""

from __future__ import annotations

import pytest

import referee
from referee.engine.run.memory import memory_run

RULES = 'eval 1\nexpect "no secret": not response contains "secret"\n'
CLEAN = {"outputs/response.md": "clean\n"}
SECRET = {"outputs/response.md": "the secret\n"}


def test_two_runs_built_with_one_identity_are_refused():
    with pytest.raises(ValueError, match="eval-1/with_skill/run-1"):
        referee.grade(RULES, [memory_run(CLEAN), memory_run(SECRET)])


def test_one_run_given_twice_is_refused():
    run = memory_run(SECRET)
    with pytest.raises(ValueError, match="eval-1/with_skill/run-1"):
        referee.grade(RULES, [run, run])


def test_two_runs_that_claim_one_number_are_refused():
    with pytest.raises(ValueError, match="run 1"):
        referee.grade(RULES, [memory_run(CLEAN), memory_run(SECRET, rel="eval-1/with_skill/run-01")])


def test_runs_numbered_apart_are_graded():
    results = referee.grade(RULES, [memory_run(CLEAN), memory_run(SECRET, run_number=2)])
    assert [(r.path, r.status) for r in results] == [("eval-1/with_skill/run-1", "PASS"),
                                                     ("eval-1/with_skill/run-2", "FAIL")]


def test_runs_loaded_on_their_own_are_told_apart_by_their_folders(tmp_path):
    from referee.engine.run.workspace import load_run

    runs = []
    for number, files in ((1, CLEAN), (2, SECRET)):
        outputs = tmp_path / "eval-1" / "with_skill" / f"run-{number}" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text(files["outputs/response.md"], encoding="utf-8")
        runs.append(load_run(outputs.parent))  # each is "." in its own folder
    assert [r.status for r in referee.grade(RULES, runs)] == ["PASS", "FAIL"]


def test_a_set_of_runs_is_graded_in_the_order_of_a_workspace():
    # A set iterates in the order of its items' hashes, which change by process; the
    # results come in the runs' order, and the critique names the first runs in it.
    rules = RULES
    runs = [memory_run({"outputs/response.md": "done"}, run_number=n) for n in range(12, 0, -1)]
    given = referee.grade(rules, set(runs))
    listed = referee.grade(rules, sorted(runs, key=lambda run: run.id.run_number))
    assert [r.path for r in given] == [f"eval-1/with_skill/run-{n}" for n in range(1, 13)]
    assert [r.grading_json for r in given] == [r.grading_json for r in listed]
