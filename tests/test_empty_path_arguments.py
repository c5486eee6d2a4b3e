"""An empty path argument is refused, naming the argument: ``Path("")`` is the working
folder, so ``referee grade "$RUNS"`` with the variable unset graded whatever folder the
command ran from (a checkout holding example runs passed its gate), and ``referee import
... --out "$OUT"`` wrote run folders into it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("argv", [
    ["grade", "", "--rules", "r.rules"],
    ["grade", "--check", "", "--rules", "r.rules"],
    ["import", "auto", "chat.json", "--out", ""],
    ["import", "auto", "", "--out", "ws"],
    ["show", ""],
    ["report", ""],
    ["aggregate", ""],
    ["diff", "", "ws"],
])
def test_an_empty_path_is_refused(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert "an empty path" in capsys.readouterr().err


def test_grade_of_an_unset_folder_grades_nothing_of_the_working_folder(tmp_path: Path, capsys):
    # the working folder holds a workspace whose runs would pass: before, "" graded it
    shutil.copytree(EXAMPLE / "booking-skill-workspace", tmp_path / "ws")
    rules = EXAMPLE / "booking-skill" / "booking.rules"
    cwd = os.getcwd()
    os.chdir(tmp_path / "ws")
    try:
        with pytest.raises(SystemExit):
            main(["grade", "", "--rules", str(rules), "--check", "--primary", "with_skill"])
    finally:
        os.chdir(cwd)
    assert "an empty path" in capsys.readouterr().err
