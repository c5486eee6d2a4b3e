"""A run folder two levels inside a folder that is a run itself.

A folder holding ``outputs/`` is a run and is not walked. Discovery named a run
folder right inside it (``run-1/``, or any folder holding ``outputs/``), but not one
a level further down: with ``eval-1/outputs/`` (a run at the eval level) above
``eval-1/with_skill/run-1/outputs/``, run-1 was never read and not a word said, and
'not response contains "SECRET"' passed though run-1's response says SECRET. A
``run-<n>`` folder holding ``outputs/`` in a folder of the run is now named too, and
grade refuses the workspace (``run-inside-run``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from referee.engine.cli import main
from referee.engine.run.discovery import RUN_INSIDE_RUN, discover

RULES = 'eval 1\nexpect "no secret": not response contains "SECRET"\n'


def _workspace(tmp_path: Path, inner: str) -> Path:
    run = tmp_path / "ws" / "eval-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("fine\n", encoding="utf-8")
    (run / inner / "outputs").mkdir(parents=True)
    (run / inner / "outputs" / "response.md").write_text("SECRET\n", encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    return tmp_path / "ws"


@pytest.mark.parametrize("inner", ["with_skill/run-1", "without_skill/run-02"])
def test_it_is_named_and_grade_refuses(tmp_path: Path, capsys, inner: str):
    workspace = _workspace(tmp_path, inner)
    found = [p for p in discover(workspace).problems if p.code == RUN_INSIDE_RUN]
    assert [p.path for p in found] == [f"eval-1/{inner}"] and "the run eval-1 " in found[0].message
    assert main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules"), "--check"]) == 2
    assert f"error: eval-1/{inner}:" in capsys.readouterr().err
    with pytest.raises(ValueError, match=inner):
        referee.grade(RULES, workspace)


def test_other_folders_below_a_run_are_no_runs(tmp_path: Path):
    workspace = _workspace(tmp_path, "work/run-notes")  # not run-<n>
    (workspace / "eval-1" / "work" / "skills" / "run-1").mkdir(parents=True)  # no outputs/
    (workspace / "eval-1" / "work" / "src" / "deep" / "run-1" / "outputs").mkdir(parents=True)  # three levels
    assert not [p for p in discover(workspace).problems if p.code == RUN_INSIDE_RUN]
