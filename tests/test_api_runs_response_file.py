"""Runs given to ``referee.grade`` already built read the response they were built to
read. When ``response=`` or the evals.json's ``response_file`` names another file,
grading them as built would check another file than ``referee grade`` checks (a
``not response contains`` passing on a clean response.md while the named answer
says it), so ``grade`` refuses them with a ValueError that says how to build them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.memory import memory_run
from referee.engine.run.memory_workspace import memory_workspace
from referee.engine.run.reading import response_files

RULES = 'eval 1\nexpect 1: not response contains "secret"\n'  # the rule of the sentence "no secret"
FILES = {"outputs/response.md": "clean\n", "outputs/answer.md": "the secret\n"}
HELD = {f"eval-1/with_skill/run-1/{name}": text for name, text in FILES.items()}


def evals_json(tmp_path: Path) -> Path:
    path = tmp_path / "evals.json"
    path.write_text(json.dumps({"skill_name": "s", "evals": [
        {"id": 1, "prompt": "p", "response_file": "outputs/answer.md", "expectations": ["no secret"]}]}),
        encoding="utf-8")
    return path


def outcome(results) -> str:
    (result,) = results
    return result.expectations[-1]["outcome"]


def test_a_response_option_the_runs_were_not_built_with_is_refused():
    with pytest.raises(ValueError, match="outputs/answer.md"):
        referee.grade(RULES, [memory_run(FILES)], response="outputs/answer.md")
    with pytest.raises(ValueError, match="outputs/answer.md"):
        referee.grade(RULES, memory_run(FILES), response="outputs/answer.md")


def test_a_response_file_of_evals_json_the_runs_were_not_built_with_is_refused(tmp_path: Path):
    evals = evals_json(tmp_path)
    with pytest.raises(ValueError, match="outputs/answer.md"):
        referee.grade(RULES, memory_workspace(HELD), evals=evals)
    with pytest.raises(ValueError, match="outputs/answer.md"):
        referee.grade(referee.compile(RULES, evals=evals), memory_workspace(HELD))


def test_runs_built_to_read_the_named_response_are_graded_as_on_disk(tmp_path: Path):
    evals = evals_json(tmp_path)
    assert outcome(referee.grade(RULES, [memory_run(FILES, response="outputs/answer.md")],
                                 response="outputs/answer.md")) == "fail"
    runs = memory_workspace(HELD, response_files(None, evals))
    assert outcome(referee.grade(RULES, runs, evals=evals)) == "fail"
    for name, text in HELD.items():
        (tmp_path / "ws" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "ws" / name).write_text(text, encoding="utf-8")
    assert outcome(referee.grade(RULES, tmp_path / "ws", evals=evals)) == "fail"


def test_runs_that_name_their_own_response_are_graded_as_built():
    assert outcome(referee.grade(RULES, [memory_run(FILES, response="outputs/answer.md")])) == "fail"
    assert outcome(referee.grade(RULES, [memory_run(FILES)])) == "pass"
