"""An iteration folder may carry a label after its number: the context-engineering
workspace (tests/fixtures/real/context-engineering-workspace) names each iteration
after the model that ran it, ``iteration-10-gpt-5.3-codex-postfix`` beside
``iteration-11-gemini-3.1-pro-preview-postfix``. Each is an iteration, numbered 10
and 11; read as a folder of no meaning, the eval both hold (eval 3) was kept apart as
two evals named after them, which the rules' ``eval 3`` reached in neither, and its
four runs went ungraded."""

from __future__ import annotations

from pathlib import Path

import referee
from referee.engine.run.discovery import RUN_NUMBER_TAKEN
from referee.engine.run.workspace import discover

REAL = Path(__file__).parent / "fixtures" / "real" / "context-engineering-workspace"
LABELLED = ("iteration-10-gpt-5.3-codex-postfix", "iteration-11-gemini-3.1-pro-preview-postfix")


def _runs(root: Path, *iterations: str) -> Path:
    for iteration in iterations:
        (root / iteration / "eval-3-plan-first" / "with_skill" / "run-1" / "outputs").mkdir(parents=True)
    return root


def test_a_labelled_iteration_folder_is_the_iteration_of_its_number(tmp_path):
    found = discover(_runs(tmp_path, *LABELLED))
    assert [(run.id.iteration, run.id.eval_id, run.id.eval_name) for run in found.runs] == [
        (10, "3", "plan-first"), (11, "3", "plan-first")]
    assert found.problems == []


def test_two_folders_of_one_iteration_number_claim_one_run(tmp_path):
    # Either may be the iteration the benchmark means: said, naming both, never one
    # graded in the other's place.
    found = discover(_runs(tmp_path, "iteration-9", "iteration-9-gpt-5.4-mini-postfix"))
    (problem,) = found.problems
    assert problem.code == RUN_NUMBER_TAKEN
    assert "iteration-9/eval-3-plan-first/with_skill/run-1 and iteration-9-gpt-5.4-mini-postfix/" in problem.message


def test_the_rules_reach_the_eval_of_every_labelled_iteration():
    rules = (REAL / "context.rules").read_text(encoding="utf-8")
    graded = referee.grade(rules, REAL, response="outputs/conflict.md")
    assert sorted(result.path for result in graded) == [
        "iteration-10-gpt-5.3-codex-postfix/eval-3-plan-first/old_skill/run-1",
        "iteration-10-gpt-5.3-codex-postfix/eval-3-plan-first/with_skill/run-1",
        "iteration-11-gemini-3.1-pro-preview-postfix/eval-2-conflict/old_skill/run-1",
        "iteration-11-gemini-3.1-pro-preview-postfix/eval-2-conflict/with_skill/run-1",
        "iteration-11-gemini-3.1-pro-preview-postfix/eval-3-plan-first/old_skill/run-1",
        "iteration-11-gemini-3.1-pro-preview-postfix/eval-3-plan-first/with_skill/run-1",
    ]
