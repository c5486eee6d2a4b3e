"""The Python API says what the command line says: ``RunResult.passed`` is the CLI's
PASS, run for run, on every example and real fixture the repository ships, and
``dir(referee)`` lists the two calls of the front door."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import referee
from conftest import REPO

REAL = REPO / "tests" / "fixtures" / "real"
# (workspace, rules files, extra grade flags) of every example run set in the repository
CASES = [
    ("examples/booking-skill-workspace", ["examples/booking-skill/booking.rules"],
     ["--evals", "examples/booking-skill/evals/evals.json"]),
    ("examples/booking-skill-workspace", ["examples/booking-skill/weak.rules"], []),
    ("tests/fixtures/real/human-narrative-workspace",
     ["tests/fixtures/real/human-narrative-workspace/narrative.rules"], []),
    ("tests/fixtures/real/word-count-audit-workspace",
     ["tests/fixtures/real/word-count-audit-workspace/audit.rules"], ["--response", "outputs/audit-report.md"]),
    ("tests/fixtures/real/audit-skill-workspace", ["tests/fixtures/real/audit-skill-workspace/report.rules"],
     ["--response", "outputs/audit-report.md"]),
    ("tests/fixtures/claims-workspace", ["tests/fixtures/claims-workspace.rules"], []),
]


def _cli_statuses(workspace: str, rules: list[str], extra: list[str]) -> dict[str, str]:
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "grade", workspace, "--rules", *rules,
                           *extra, "--check", "--json"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return {run["path"]: run["status"] for run in json.loads(done.stdout)["runs"]}


@pytest.mark.parametrize("workspace,rules,extra", CASES, ids=[Path(c[0]).name + ":" + Path(c[1][0]).name
                                                              for c in CASES])
def test_passed_is_the_status_the_cli_prints(workspace, rules, extra):
    cli = _cli_statuses(workspace, rules, extra)
    text = "\n".join((REPO / r).read_text(encoding="utf-8") for r in rules)
    evals = extra[1] if extra[:1] == ["--evals"] else None
    response = extra[1] if extra[:1] == ["--response"] else None
    results = referee.grade(text, REPO / workspace, evals=None if evals is None else REPO / evals,
                            response=response)
    api = {r.path: r.status for r in results}
    assert api == cli
    assert {r.path: r.passed for r in results} == {path: status == "PASS" for path, status in cli.items()}
    assert "FAIL" in cli.values() or "EMPTY" in cli.values() or workspace.endswith("claims-workspace")


def test_a_run_where_nothing_counted_is_not_passed(tmp_path: Path):
    run = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    run.mkdir(parents=True)
    (run / "response.md").write_text("done\n", encoding="utf-8")
    (result,) = referee.grade('eval 1\nexpect: exists file "response.md"\n', tmp_path)
    assert result.grading["gate"]["passed"] == 0 and result.grading["gate"]["total"] == 0
    assert result.status == "EMPTY" and result.passed is False


def test_a_run_that_fails_some_gated_assertion_is_not_passed(tmp_path: Path):
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", tmp_path / "ws")
    rules = (REPO / "examples" / "booking-skill" / "booking.rules").read_text(encoding="utf-8")
    results = {r.path: r for r in referee.grade(rules, tmp_path / "ws")}
    gate_4_of_6 = results["iteration-1/eval-1-book-flight/without_skill/run-1"]
    assert gate_4_of_6.grading["gate"]["passed"] == 4 and gate_4_of_6.grading["gate"]["total"] == 6
    assert gate_4_of_6.passed is False  # 4 of 6 is a FAIL, not a truthy count


def test_dir_lists_the_front_door():
    names = dir(referee)
    for name in ("compile", "grade", "RunResult", "RulesError", "__version__"):
        assert name in names
