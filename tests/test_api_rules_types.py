"""``referee.compile`` and ``referee.grade`` take rules as text (``grade``: or a compiled
``Program``). A Path, bytes or None given as rules is a TypeError that says what was
given and what to give, never an AttributeError from inside the parser."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect "done": response contains "done"\n'


@pytest.mark.parametrize("rules", [Path("x.rules"), RULES.encode(), None, 5])
def test_compile_refuses_rules_that_are_not_text(rules):
    with pytest.raises(TypeError, match="rules text"):
        referee.compile(rules)


@pytest.mark.parametrize("rules", [Path("x.rules"), RULES.encode(), None, 5])
def test_grade_refuses_rules_that_are_not_text_or_a_program(tmp_path: Path, rules):
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("done\n", encoding="utf-8")
    with pytest.raises(TypeError, match="rules text"):
        referee.grade(rules, tmp_path)


def test_rules_text_and_a_program_are_still_graded(tmp_path: Path):
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("done\n", encoding="utf-8")
    assert referee.grade(RULES, tmp_path) == referee.grade(referee.compile(RULES), tmp_path)
    assert referee.grade(RULES, tmp_path)[0].passed


@pytest.mark.parametrize("argument", [{"path": None}, {"path": 5}, {"evals_name": 5}])
def test_compile_names_an_argument_that_is_no_name(argument):
    """``path=None`` named the rules "None" in every rules_location (None:2:1)."""
    (name,) = argument
    with pytest.raises(TypeError, match=name):
        referee.compile(RULES, **argument)


def test_compile_takes_the_rules_path_as_a_path(tmp_path: Path):
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("done\n", encoding="utf-8")
    as_path = referee.grade(referee.compile(RULES, Path("my.rules")), tmp_path)
    assert as_path == referee.grade(referee.compile(RULES, "my.rules"), tmp_path)
    assert as_path[0].expectations[0]["rules_location"] == "my.rules:2:1"


def test_rules_name_refuses_rules_that_are_not_text():
    from referee.engine.api import rules_name

    with pytest.raises(TypeError, match="rules text"):
        rules_name("my.rules", RULES.encode())  # type: ignore[arg-type]
