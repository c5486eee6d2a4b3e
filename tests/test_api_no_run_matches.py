"""``referee.grade`` given a folder or source files none of whose runs an eval of the
rules matches refuses them, as ``referee grade`` does ("no run matches an eval of the
rules", exit 2): an empty list would read as "every run passed". Runs given in memory
(an eval's runs at a time, as docs/scale.md grades them) still give what matched."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from referee.engine.run.memory import memory_run

RULES = 'eval 2\nexpect "done": response contains "done"\n'
SESSION = Path(__file__).parent / "fixtures" / "import" / "claude-code" / "session.jsonl"


def workspace(tmp_path: Path) -> Path:
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("done\n", encoding="utf-8")
    return tmp_path


def test_a_workspace_whose_runs_no_eval_matches_is_refused(tmp_path: Path):
    with pytest.raises(ValueError, match="no run matches an eval of the rules"):
        referee.grade(RULES, workspace(tmp_path))


@pytest.mark.parametrize("where", [SESSION, [SESSION]])
def test_sources_whose_runs_no_eval_matches_are_refused(where):
    with pytest.raises(ValueError, match="no run matches an eval of the rules"):
        referee.grade(RULES, where)


def test_runs_in_memory_that_no_eval_matches_give_no_result():
    run = memory_run({"outputs/response.md": b"done\n"})
    assert referee.grade(RULES, [run]) == []


def test_a_workspace_with_a_matching_run_is_graded(tmp_path: Path):
    (result,) = referee.grade(RULES.replace("eval 2", "eval 1"), workspace(tmp_path))
    assert result.passed
