"""A run whose outputs/ holds a file name that is not UTF-8 (a Windows archive
unpacked on Linux keeps "résumé.md" in CP-1252 or CP-437 bytes) may hold the file a
rule names under it: a check on a file the run does not list is then an ERROR
naming that name, never a pass of `not file "résumé.md" contains ...` on a file
called missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: {}\n'


def _run(tmp_path: Path, names: dict[bytes, bytes]) -> Path:
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    for name, data in names.items():
        with open(os.path.join(os.fsencode(outputs), name), "wb") as handle:
            handle.write(data)
    return tmp_path / "ws"


@pytest.mark.parametrize("check", ['not file "résumé.md" contains "secret"', 'not exists file "résumé.md"'])
@pytest.mark.parametrize("raw", ["résumé.md".encode("cp1252"), "résumé.md".encode("cp437")])
def test_a_name_that_is_not_utf8_may_be_the_file_named(tmp_path: Path, check: str, raw: bytes):
    (result,) = referee.grade(RULES.format(check), _run(tmp_path, {raw: b"secret\n"}))
    (item,) = result.expectations
    assert item["outcome"] == "error", item["evidence"]
    assert "not UTF-8" in item["evidence"]


def test_a_file_listed_as_named_is_read_beside_a_name_that_is_not_utf8(tmp_path: Path):
    ws = _run(tmp_path, {"résumé.md".encode("cp1252"): b"x\n", "résumé.md".encode(): b"secret\n"})
    (result,) = referee.grade(RULES.format('not file "résumé.md" contains "secret"'), ws)
    assert [item["outcome"] for item in result.expectations] == ["fail"]


def test_a_missing_file_in_a_run_of_utf8_names_is_missing(tmp_path: Path):
    (result,) = referee.grade(RULES.format('not exists file "résumé.md"'), _run(tmp_path, {b"other.md": b"x\n"}))
    assert [item["outcome"] for item in result.expectations] == ["pass"]
