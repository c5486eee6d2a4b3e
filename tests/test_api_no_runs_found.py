"""``referee.grade`` given a folder where no run is found refuses it, as ``referee grade``
does ("no runs found", exit 2): an empty list would read as "every run passed" to a
caller that checks ``all(r.passed for r in results)``. So is an empty list of runs or
sources: files held in memory where no run is found give none."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect "done": response contains "done"\n'


def test_an_empty_folder_is_no_workspace(tmp_path: Path):
    with pytest.raises(ValueError, match="no runs found") as raised:
        referee.grade(RULES, tmp_path)
    assert str(tmp_path) in str(raised.value)


def test_a_folder_of_files_without_runs_is_no_workspace(tmp_path: Path):
    (tmp_path / "notes.md").write_text("done\n", encoding="utf-8")
    (tmp_path / "eval-1" / "with_skill").mkdir(parents=True)  # a run is a folder holding outputs/
    with pytest.raises(ValueError, match="no runs found"):
        referee.grade(RULES, str(tmp_path))


def test_a_folder_of_session_logs_says_how_to_import_them(tmp_path: Path):
    session = Path(__file__).parent / "fixtures" / "import" / "claude-code" / "session.jsonl"
    (tmp_path / "session.jsonl").write_bytes(session.read_bytes())
    with pytest.raises(ValueError, match="referee import"):
        referee.grade(RULES, tmp_path)


@pytest.mark.parametrize("where", [[], (), iter([])])
def test_no_runs_and_no_sources_given_are_refused(where):
    with pytest.raises(ValueError, match="no runs"):
        referee.grade(RULES, where)


def test_files_in_memory_that_hold_no_run_are_refused():
    from referee.engine.run.memory_workspace import memory_workspace

    runs = memory_workspace({"eval-1/with_skill/run-1/response.md": "done\n"})  # no outputs/: no run
    with pytest.raises(ValueError, match="no runs"):
        referee.grade(RULES, runs)


def test_a_folder_with_a_run_is_graded(tmp_path: Path):
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("done\n", encoding="utf-8")
    (result,) = referee.grade(RULES, tmp_path)
    assert result.passed
