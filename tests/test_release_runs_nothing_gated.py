"""The release rule ``runs`` counts an eval's runs whose gate counted something: an
eval whose runs all counted nothing (existence checks alone, all failing) has no
run that says anything of it, and never holds the rule vacuously."""

from __future__ import annotations

import json
from pathlib import Path

from compare_workspace import BLOCK, build, grade
from referee.engine.cli import main

EXISTENCE_ONLY = '\neval 2 "task-2"\nexpect "writes report.csv": exists file "report.csv"\n'


def _workspace(tmp_path: Path, second: str) -> Path:
    # Eval 1: three good runs of with_skill, three bad of without_skill. Eval 2: three
    # runs a side, graded by ``second``.
    workspace = build(tmp_path / "ws", {"with_skill": [["good"] * 3] * 2, "without_skill": [["bad"] * 3] * 2})
    rules = tmp_path / "r.rules"
    rules.write_text(BLOCK.format(i=1) + second, encoding="utf-8")
    grade(workspace, rules)
    return workspace


def _reason(workspace: Path, rule: str) -> dict:
    document = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    return next(r for r in document["release"]["reasons"] if r["rule"] == rule)


def test_an_eval_whose_runs_counted_nothing_breaks_the_runs_rule(tmp_path: Path):
    # Every run of eval 2 fails its one existence check, which the gate does not count:
    # the decision was PASS (exit 0), eval 2's three EMPTY runs holding the rule.
    workspace = _workspace(tmp_path, EXISTENCE_ONLY)
    assert main(["aggregate", str(workspace), "--primary", "with_skill"]) == 3
    reason = _reason(workspace, "runs")
    assert reason["status"] == "conditional"
    assert "eval 2 with_skill 0 (3 of its 3 runs counted nothing in the gate)" in reason["message"]


def test_an_eval_whose_runs_all_count_holds_the_rule(tmp_path: Path):
    workspace = _workspace(tmp_path, BLOCK.format(i=2))
    assert main(["aggregate", str(workspace), "--primary", "with_skill"]) == 0
    assert _reason(workspace, "runs")["status"] == "ok"
