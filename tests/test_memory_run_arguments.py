"""``memory_run``'s identity arguments as a library user gives them: an eval id given
as a number is a TypeError naming it (as an int it matched no eval of the rules, and
the run was silently left out), as are other arguments of the wrong type; a response
given as a Path is its text."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from referee.engine.run.memory import memory_run

RULES = 'eval 1\nexpect "no secret": not response contains "secret"\n'
FILES = {"outputs/response.md": "clean\n", "outputs/answer.md": "the secret\n"}


@pytest.mark.parametrize("argument", [
    {"eval_id": 1}, {"configuration": None}, {"eval_name": 2}, {"rel": 3}, {"run_number": "1"},
    {"run_number": True}, {"metadata": [1]}, {"response": 4},
])
def test_an_argument_of_the_wrong_type_is_a_type_error_naming_it(argument):
    (name,) = argument
    with pytest.raises(TypeError, match=name):
        memory_run(FILES, **argument)


def test_a_response_given_as_a_path_is_its_text():
    (result,) = referee.grade(RULES, [memory_run(FILES, response=Path("outputs/answer.md"))])
    assert result.expectations[0]["outcome"] == "fail"


@pytest.mark.parametrize("rel", ["../elsewhere/run-1", "/tmp/run-1", "eval-1/../../run-1", ""])
def test_a_run_path_outside_the_workspace_is_refused(rel):
    """``rel`` is the run's path in the workspace, which each RunResult.path gives and a
    caller writes the reports under (docs/scale.md): it cannot leave the workspace."""
    with pytest.raises(ValueError, match="rel"):
        memory_run(FILES, rel=rel)


def test_a_run_path_inside_the_workspace_is_the_results_path():
    (result,) = referee.grade(RULES, [memory_run(FILES, rel="it-1/eval-1/with_skill/run-1")])
    assert result.path == "it-1/eval-1/with_skill/run-1"
