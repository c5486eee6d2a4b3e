"""Two run folders of one configuration that claim one number are an error naming both.

``run-1`` beside ``run-01`` are both run 1: each was graded, and each report
(grading.json, benchmark.json, the JUnit test case "1.with_skill.run-1") said run 1,
so one stood where the other did: a CI report keeps one test case of a name, and
the failing run could hide behind the passing one. ``grade`` now refuses the
workspace, naming both folders, and discovery says so as a warning."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from referee.engine.cli import main
from referee.engine.run.discovery import RUN_NUMBER_TAKEN, discover

RULES = 'eval 1\nexpect "no secret": not response contains "SECRET"\n'


def _workspace(tmp_path: Path, *runs: str) -> Path:
    for name in runs:
        outputs = tmp_path / "ws" / "iteration-1" / "eval-1-x" / "with_skill" / name / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text(f"answer of {name}\n", encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    return tmp_path / "ws"


def test_discovery_names_both_runs(tmp_path: Path):
    workspace = _workspace(tmp_path, "run-1", "run-01", "run-2")
    (taken,) = [p for p in discover(workspace).problems if p.code == RUN_NUMBER_TAKEN]
    assert "run-1 " in taken.message + " " and "run-01" in taken.message and "run 1" in taken.message


def test_grade_refuses_and_writes_nothing(tmp_path: Path, capsys):
    workspace = _workspace(tmp_path, "run-1", "run-01")
    assert main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules")]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "with_skill/run-01" in err and "with_skill/run-1 " in err
    assert not list(workspace.rglob("grading.json"))
    with pytest.raises(ValueError, match="run-01"):
        referee.grade(RULES, workspace)


def test_the_same_number_in_another_iteration_or_configuration_is_no_clash(tmp_path: Path):
    workspace = _workspace(tmp_path, "run-1", "run-2")
    other = workspace / "iteration-2" / "eval-1-x" / "with_skill" / "run-01" / "outputs"
    other.mkdir(parents=True)
    (other / "response.md").write_text("fine\n", encoding="utf-8")
    assert not [p for p in discover(workspace).problems if p.code == RUN_NUMBER_TAKEN]
    assert main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules"), "--check"]) == 0
