"""An eval folder that names its eval by name (``eval-expense-draft``, or a
descriptive ``sales-summary`` as skill-creator asks), with no eval_metadata.json:
its runs are the eval the rules give that name (``eval 1 "expense-draft"``), as a
folder ``eval-1-expense-draft`` is. They were left ungraded ("no eval of the rules
matches"), and the grade passed without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.dsl import parse_rules
from referee.engine.compile import compile_rules
from referee.engine.run.workspace import discover

RULES = 'eval 1 "expense-draft"\nexpect "no bash": no calls to "Bash"\neval 2\nexpect "x": response is not empty\n'


@pytest.mark.parametrize("folder", ["eval-expense-draft", "expense-draft"])
def test_a_folder_named_by_the_eval_name_is_that_eval(tmp_path: Path, folder):
    (tmp_path / "iteration-1" / folder / "with_skill" / "run-1" / "outputs").mkdir(parents=True)
    program = compile_rules([parse_rules(RULES, "r.rules")])
    (run,) = discover(tmp_path).runs
    compiled = program.for_run(run.id, run.metadata)
    assert compiled is not None and compiled.key == "1"


def test_an_id_is_still_matched_as_an_id(tmp_path: Path):
    (tmp_path / "eval-2" / "with_skill" / "outputs").mkdir(parents=True)
    program = compile_rules([parse_rules(RULES, "r.rules")])
    (run,) = discover(tmp_path).runs
    assert program.for_run(run.id, run.metadata).key == "2"
