"""``referee.grade``'s options as a library user gives them: ``response`` as a Path is
the same file as its str; a number for ``response``, ``evals``, ``as_eval`` or ``error_when`` is a
TypeError naming the option, never an error from deep inside the reader."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

FIXTURE = Path(__file__).parent / "fixtures" / "import" / "claude-code"
SESSION = FIXTURE / "session.jsonl"
RULES = (FIXTURE / "session.rules").read_text(encoding="utf-8")
WS_RULES = 'eval 1\nexpect "done": response contains "done"\n'


def workspace(tmp_path: Path) -> Path:
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "answer.md").write_text("done\n", encoding="utf-8")
    return tmp_path


def test_a_response_given_as_a_path_is_the_response_given_as_text(tmp_path: Path):
    ws = workspace(tmp_path)
    as_text = referee.grade(WS_RULES, ws, response="outputs/answer.md")
    assert as_text[0].passed  # answer.md, not the response.md read without the option
    assert referee.grade(WS_RULES, ws, response=Path("outputs/answer.md")) == as_text


@pytest.mark.parametrize("option", ["response", "as_eval", "error_when"])
def test_an_option_that_is_not_text_is_a_type_error_naming_it(option):
    with pytest.raises(TypeError, match=option):
        referee.grade(RULES, SESSION, **{option: 5})


@pytest.mark.parametrize("rules", [RULES, referee.compile(RULES)], ids=["text", "program"])
def test_an_evals_that_is_not_a_path_is_a_type_error_naming_it(rules):
    # It was "expected str, bytes or os.PathLike object, not int" from os.fspath.
    with pytest.raises(TypeError, match="^evals must be a str, not int: 5$"):
        referee.grade(rules, SESSION, evals=5)
    with pytest.raises(TypeError, match="^evals must be a str, not list"):
        referee.compile(RULES, evals=["evals.json"])
