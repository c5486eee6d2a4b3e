"""``referee.grade`` refuses what ``referee grade`` refuses about sources: options
for source files given with a workspace folder (they would be silently ignored,
and the runs graded as another eval than asked), and a path that is neither a
folder nor a regular file (an empty result would read as every run passing)."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect "done": response contains "done"\n'


def workspace(tmp_path: Path) -> Path:
    outputs = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("done\n", encoding="utf-8")
    return tmp_path / "ws"


@pytest.mark.parametrize("option", [{"as_eval": "3"}, {"error_when": "ERROR"}])
def test_source_options_with_a_workspace_folder_are_refused(tmp_path, option):
    with pytest.raises(ValueError, match="source files"):
        referee.grade(RULES, workspace(tmp_path), **option)


def test_a_path_that_is_no_folder_and_no_regular_file_is_refused():
    with pytest.raises(ValueError, match="not a regular file"):
        referee.grade(RULES, "/dev/null")


def test_a_workspace_folder_is_still_graded(tmp_path):
    (result,) = referee.grade(RULES, workspace(tmp_path))
    assert result.passed
