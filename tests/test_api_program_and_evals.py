"""``referee.grade(program, where, evals=E)`` grades as ``referee grade --evals E`` does,
whatever evals.json the program was compiled with: the assertions take the texts and
order of E. A program compiled without it kept its rules' texts while reading E's
response files, a report ``referee grade`` never writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import referee
from conftest import REPO

RULES = (REPO / "examples" / "booking-skill" / "booking.rules").read_text(encoding="utf-8")
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"


def workspace(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", tmp_path / "ws")
    return tmp_path / "ws"


def test_a_program_compiled_without_evals_is_graded_with_the_evals_given(tmp_path: Path):
    ws = workspace(tmp_path)
    expected = referee.grade(RULES, ws, evals=EVALS)
    assert referee.grade(referee.compile(RULES), ws, evals=EVALS) == expected
    assert referee.grade(referee.compile(RULES), ws, evals=str(EVALS)) == expected


def test_a_program_compiled_with_other_evals_is_graded_with_the_evals_given(tmp_path: Path):
    ws = workspace(tmp_path)
    other = tmp_path / "other.json"
    other.write_text(EVALS.read_text(encoding="utf-8").replace("Exactly one", "Just one"), encoding="utf-8")
    expected = referee.grade(RULES, ws, evals=EVALS)
    assert referee.grade(referee.compile(RULES, evals=other), ws, evals=EVALS) == expected


def test_a_program_compiled_with_the_evals_given_is_graded_as_compiled(tmp_path: Path):
    ws = workspace(tmp_path)
    program = referee.compile(RULES, "booking.rules", evals=EVALS, evals_name="evals.json")
    assert referee.grade(program, ws, evals=EVALS) == referee.grade(program, ws)
