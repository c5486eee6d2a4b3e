"""A ``run-1/`` holding only a grader's files beside the configuration's ``outputs/``.

Some harnesses run each configuration in ``eval-N/<config>/`` (the flat layout: its
``outputs/``, ``timing.json``) and their grading script then writes the grade into a
``run-1/`` it creates there, with a copy of ``timing.json``, because skill-creator's
aggregator looks for ``run-*/grading.json``. The run is the configuration folder;
``run-1/`` holds no record of a run, only its old grade. Discovery refused such a
workspace (``run-inside-run``) and nothing was graded; it now reads the configuration
folder as the run and says, naming ``run-1/``, that its files are not read. A
``run-1/`` that holds anything else (outputs, a transcript, a response, a folder,
a symlink) is still refused: a run's record there would go unread.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.cli import main
from referee.engine.run.discovery import GRADE_FOLDER, REFUSED, RUN_INSIDE_RUN, discover

RULES = 'eval 0\nexpect "report": exists file "audit-report.md"\nexpect "no secret": not response contains "SECRET"\n'


def _workspace(tmp_path: Path) -> Path:
    """The shape of a real workspace: iteration-7/eval-0/{with_skill,old_skill}/ with
    outputs/ and timing.json, and a run-1/ holding the grading script's grading.json
    and its copy of timing.json."""
    eval_folder = tmp_path / "ws" / "iteration-7" / "eval-0"
    eval_folder.mkdir(parents=True)
    (eval_folder / "eval_metadata.json").write_text(json.dumps(
        {"eval_id": 0, "prompt": "Audit the skill.", "assertions": [{"id": "a", "text": "report written"}]}))
    timing = json.dumps({"total_tokens": 41146, "duration_ms": 87635, "total_duration_seconds": 87.6})
    for config in ("with_skill", "old_skill"):
        run = eval_folder / config
        (run / "outputs").mkdir(parents=True)
        (run / "outputs" / "audit-report.md").write_text("# Audit\n", encoding="utf-8")
        (run / "timing.json").write_text(timing, encoding="utf-8")
        (run / "run-1").mkdir()
        (run / "run-1" / "grading.json").write_text(json.dumps(
            {"run_id": f"eval-0-{config}", "expectations": [{"text": "report written", "passed": True,
                                                             "evidence": "x"}]}), encoding="utf-8")
        (run / "run-1" / "timing.json").write_text(timing, encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    return tmp_path / "ws"


def test_the_configuration_folder_is_the_run_and_run_1_is_named(tmp_path: Path):
    found = discover(_workspace(tmp_path))
    assert list(found.runs.rels) == ["iteration-7/eval-0/old_skill", "iteration-7/eval-0/with_skill"]
    assert [run.id.run_number for run in found.runs] == [1, 1]
    assert not [p for p in found.problems if p.code in REFUSED]
    notes = [p for p in found.problems if p.code == GRADE_FOLDER]
    assert [p.path for p in notes] == ["iteration-7/eval-0/old_skill/run-1", "iteration-7/eval-0/with_skill/run-1"]
    assert "iteration-7/eval-0/with_skill " in notes[1].message
    assert "holds only grading.json and timing.json," in notes[1].message


def test_grade_grades_the_runs(tmp_path: Path, capsys):
    workspace = _workspace(tmp_path)
    assert main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules"), "--check"]) in (0, 1)
    out = capsys.readouterr()
    assert "iteration-7/eval-0/with_skill" in out.out and "grade-folder" in out.err
    results = list(referee.grade(RULES, workspace))
    assert len(results) == 2


@pytest.mark.parametrize("extra", ["transcript.md", "response.md", "notes.txt", "outputs/", "logs/"])
def test_run_1_holding_more_than_a_grade_is_still_refused(tmp_path: Path, extra: str):
    inner = _workspace(tmp_path) / "iteration-7" / "eval-0" / "with_skill" / "run-1"
    if extra.endswith("/"):
        (inner / extra).mkdir()
    else:
        (inner / extra).write_text("SECRET\n", encoding="utf-8")
    codes = {p.path: p.code for p in discover(tmp_path / "ws").problems}
    assert codes["iteration-7/eval-0/with_skill/run-1"] == RUN_INSIDE_RUN


def test_a_symlinked_grade_is_still_refused(tmp_path: Path):
    inner = _workspace(tmp_path) / "iteration-7" / "eval-0" / "with_skill" / "run-1"
    (inner / "grading.json").unlink()
    (inner / "grading.json").symlink_to(tmp_path / "r.rules")
    codes = {p.path: p.code for p in discover(tmp_path / "ws").problems}
    assert codes["iteration-7/eval-0/with_skill/run-1"] == RUN_INSIDE_RUN


def test_an_empty_run_1_is_still_refused(tmp_path: Path):
    inner = _workspace(tmp_path) / "iteration-7" / "eval-0" / "with_skill" / "run-1"
    for file in inner.iterdir():
        file.unlink()
    codes = {p.path: p.code for p in discover(tmp_path / "ws").problems}
    assert codes["iteration-7/eval-0/with_skill/run-1"] == RUN_INSIDE_RUN


def test_the_real_workspace_is_read_with_its_grade_folder():
    """tests/fixtures/real/audit-skill-workspace keeps with_skill/run-1/grading.json as
    the grading script left it (see its SOURCE.md)."""
    found = discover(Path(__file__).parent / "fixtures" / "real" / "audit-skill-workspace")
    assert list(found.runs.rels) == ["iteration-7/eval-0/old_skill", "iteration-7/eval-0/with_skill"]
    assert [(p.code, p.path) for p in found.problems] == [(GRADE_FOLDER, "iteration-7/eval-0/with_skill/run-1")]
    assert "holds only grading.json," in found.problems[0].message  # the real run-1 has no timing.json
