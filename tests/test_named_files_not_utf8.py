"""A file the user names (rules, evals.json, a benchmark.json to diff, a release
config) that is not UTF-8 is refused with an error naming the file and the line of
the first byte that is not, never a byte offset into the file alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"


def _commands(tmp_path: Path, bad: Path) -> dict[str, list[str]]:
    workspace = tmp_path / "ws"
    return {
        "check": ["check", str(bad)],
        "grade --rules": ["grade", str(workspace), "--rules", str(bad), "--check"],
        "grade --evals": ["grade", str(workspace), "--rules", str(RULES), "--evals", str(bad), "--check"],
        "diff": ["diff", str(bad), str(workspace / "benchmark.json")],
        "aggregate --release-config": ["aggregate", str(workspace), "--check", "--release-config", str(bad)],
    }


@pytest.mark.parametrize("command", list(_commands(Path("."), Path("bad"))))
def test_a_named_file_that_is_not_utf8_is_refused_naming_its_line(tmp_path: Path, capsys, command: str):
    # Input: a file whose second line holds the byte 0xff (Latin-1 "ÿ"). The error
    # said "not UTF-8 text", or quoted Python's "'utf-8' codec can't decode byte 0xff
    # in position 13": no line to look at.
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b'# a comment\n# caf\xe9\n{}\n')
    assert main(_commands(tmp_path, bad)[command]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "byte 0xe9 on line 2 is not UTF-8" in err, err
