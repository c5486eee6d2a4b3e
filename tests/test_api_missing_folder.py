"""``referee.grade`` given a path that does not exist says so, as ``referee grade``
does ("workspace not found", exit 2): an empty list would read as "every run
passed" to a caller that checks ``all(r.passed for r in results)``."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect "done": response contains "done"\n'


def test_a_folder_that_does_not_exist_is_an_error(tmp_path: Path):
    missing = tmp_path / "no" / "such" / "workspace"
    with pytest.raises(FileNotFoundError) as raised:
        referee.grade(RULES, missing)
    assert str(missing) in str(raised.value)
    with pytest.raises(FileNotFoundError):
        referee.grade(RULES, str(missing))

