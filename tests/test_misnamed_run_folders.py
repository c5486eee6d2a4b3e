"""A folder holding ``outputs/`` is a run, whatever its name. One named like a run
but not ``run-<n>`` (``run-a``, ``run-1 copy``, ``run-１`` in full-width digits) has
no number to report it by and is not graded; it was skipped with a warning while
every decision was taken on the runs left: the example's failing run saved as
``run-1 copy`` beside a passing ``run-1`` gave ``grade --check`` '1 run (1 passed)'
and exit 0. So did one in a configuration folder not named like a run at all
(``run2``, ``2``, ``trial-2``), read as a run of an eval named after the configuration,
which no rules name. Such a folder is counted as not read, as a ``run-<n>`` folder
without ``outputs/`` is (tests/test_unread_run_folders.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.run.workspace import discover

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "booking-skill-workspace" / "iteration-1"
RUN = EXAMPLE / "eval-1-book-flight" / "with_skill" / "run-1"
RULES = 'eval 1\nexpect "no refund promised": not response contains "refund"\n'


def _workspace(root: Path, name: str) -> Path:
    """eval-1's real run-1, and a copy of it under ``name`` whose reply promises a refund."""
    config = root / "iteration-1" / "eval-1-book-flight" / "with_skill"
    shutil.copytree(RUN, config / "run-1")
    shutil.copytree(RUN, config / name)
    reply = config / name / "outputs" / "response.md"
    reply.write_text(reply.read_text(encoding="utf-8") + "A refund for the old booking is on its way.\n",
                     encoding="utf-8")
    shutil.copy(EXAMPLE / "eval-1-book-flight" / "eval_metadata.json", config.parent)
    return root


@pytest.mark.parametrize("name", ["run-a", "run-1 copy", "run-\uff11", "run_final",
                                  # not named like a run, in a configuration folder of an eval folder:
                                  # read by the folders alone, it was a run of an eval named with_skill
                                  "run2", "2", "trial-2", "attempt_2"])
def test_the_gate_does_not_pass_over_a_misnamed_run(tmp_path: Path, capsys, name: str):
    rules = tmp_path / "one.rules"
    rules.write_text(RULES, encoding="utf-8")
    code = main(["grade", str(_workspace(tmp_path / "ws", name)), "--rules", str(rules), "--check", "--json"])
    document = json.loads(capsys.readouterr().out)
    assert [run["path"] for run in document["runs"]] == ["iteration-1/eval-1-book-flight/with_skill/run-1"]
    assert document["unread_runs"] == [f"iteration-1/eval-1-book-flight/with_skill/{name}"]
    assert code == document["exit_code"] == 1


@pytest.mark.parametrize("name", ["run-a", "trial-2"])
def test_it_is_read_as_a_run_of_its_eval_and_configuration(tmp_path: Path, name: str):
    found = discover(_workspace(tmp_path, name))
    [unread] = found.unread
    assert (unread.rel, unread.eval_id, unread.configuration) == (
        f"iteration-1/eval-1-book-flight/with_skill/{name}", "1", "with_skill")
    assert [(p.code, p.path) for p in found.problems] == [
        ("bad-run-name", f"iteration-1/eval-1-book-flight/with_skill/{name}")]

