"""A run folder inside a folder that is a run itself is an error, never left unread.

A folder holding outputs/ is a run, and discovery does not walk into it: with
``eval-1/with_skill/outputs`` (the flat layout) beside ``eval-1/with_skill/run-1/
outputs``, run-1 was never read, and 'not response contains "SECRET"' passed on
the workspace though run-1's response says SECRET. Discovery now says so, naming
both, and grade refuses the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from referee.engine.cli import main
from referee.engine.run.discovery import RUN_INSIDE_RUN, discover

RULES = 'eval 1\nexpect "no secret": not response contains "SECRET"\n'


def _workspace(tmp_path: Path, inner: str) -> Path:
    outer = tmp_path / "ws" / "eval-1" / "with_skill"
    (outer / "outputs").mkdir(parents=True)
    (outer / "outputs" / "response.md").write_text("fine\n", encoding="utf-8")
    (outer / inner / "outputs").mkdir(parents=True)
    (outer / inner / "outputs" / "response.md").write_text("SECRET\n", encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    return tmp_path / "ws"


@pytest.mark.parametrize("inner", ["run-1", "retry"])
def test_the_run_inside_is_named_and_grade_refuses(tmp_path: Path, inner: str, capsys):
    workspace = _workspace(tmp_path, inner)
    (found,) = [p for p in discover(workspace).problems if p.code == RUN_INSIDE_RUN]
    assert found.path == f"eval-1/with_skill/{inner}" and "eval-1/with_skill " in found.message
    assert main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules"), "--check"]) == 2
    assert f"error: eval-1/with_skill/{inner}:" in capsys.readouterr().err
    with pytest.raises(ValueError, match=inner):
        referee.grade(RULES, workspace)


def test_other_folders_beside_outputs_are_no_runs(tmp_path: Path):
    run = tmp_path / "ws" / "eval-1" / "with_skill"
    (run / "outputs").mkdir(parents=True)
    (run / "inputs" / "data").mkdir(parents=True)
    (run / "run-logs").mkdir()
    assert not [p for p in discover(tmp_path / "ws").problems if p.code == RUN_INSIDE_RUN]
