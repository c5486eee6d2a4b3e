"""Benchmark numbers and decisions on small workspaces whose right answer is
worked out by hand: runs that cannot be read, configurations with no usable run,
and what `aggregate`, `compare` and `diff` decide from them."""

from __future__ import annotations

import json
from pathlib import Path

from graded_runs import write_run
from referee.engine.cli import main


def _aggregate(workspace: Path, *extra: str) -> tuple[int, dict]:
    code = main(["aggregate", str(workspace), "--release-config", str(_quick(workspace)), *extra])
    return code, json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))


def _quick(workspace: Path) -> Path:
    config = workspace.parent / "quick.toml"
    config.write_text('mode = "quick"\n', encoding="utf-8")
    return config


def test_a_primary_whose_every_run_is_unreadable_is_not_replaced_by_the_baseline(tmp_path):
    # with_skill's 2 runs have a broken grading.json; without_skill's 2 runs pass every
    # assertion. The skill under test has no pass rate at all: FAIL, never a decision
    # that takes without_skill for the skill under test (it would PASS on 100 %).
    ws = tmp_path / "ws"
    for k in (1, 2):
        (write_run(ws / "eval-1" / "with_skill" / f"run-{k}", ["pass"]) / "grading.json").write_text("{broken")
        write_run(ws / "eval-1" / "without_skill" / f"run-{k}", ["pass", "pass"])
    code, doc = _aggregate(ws)
    assert doc["metadata"]["primary"] == "with_skill" and doc["metadata"]["baseline"] == "without_skill"
    assert doc["run_summary"]["with_skill"]["runs"] == 0 and doc["run_summary"]["with_skill"]["pass_rate"] is None
    assert doc["release"]["decision"] == "FAIL" and code == 1


def test_an_eval_without_runs_of_the_primary_has_too_few_runs(tmp_path):
    # Quick mode (2 runs per eval and configuration). Eval 1: with_skill 2 passing runs,
    # without_skill 2 failing ones. Eval 2: without_skill 2 runs, with_skill none at all.
    # Eval 2 has 0 runs of the skill under test, fewer than 2: the rule `runs` is broken
    # (CONDITIONAL PASS, exit 3), never "every eval has at least 2 runs" and a PASS.
    ws = tmp_path / "ws"
    for k in (1, 2):
        write_run(ws / "eval-1" / "with_skill" / f"run-{k}", ["pass"])
        write_run(ws / "eval-1" / "without_skill" / f"run-{k}", ["fail"])
        write_run(ws / "eval-2" / "without_skill" / f"run-{k}", ["fail"], eval_key="2")
    code, doc = _aggregate(ws)
    runs = next(r for r in doc["release"]["reasons"] if r["rule"] == "runs")
    assert runs["status"] == "conditional" and "eval 2 with_skill 0" in runs["message"]
    assert doc["release"]["decision"] == "CONDITIONAL PASS" and code == 3


def test_diff_says_which_runs_it_could_not_read(tmp_path, capsys):
    # BASE: eval 1, with_skill 3 runs that all succeed. NEW: with_skill 1 run that
    # succeeds and 2 that fail, whose grading.json is then broken. Read whole, NEW is
    # 1/3 against 3/3 (a regression); the diff can only see 1/1, and must say that it
    # left 2 runs out rather than print a bare "no regression".
    from compare_workspace import graded

    base = graded(tmp_path / "b", {"with_skill": [["good"] * 3], "without_skill": [["bad"] * 3]})
    new = graded(tmp_path / "n", {"with_skill": [["good", "bad", "bad"]], "without_skill": [["bad"] * 3]})
    assert main(["diff", str(base), str(new)]) == 1
    for k in (2, 3):
        (new / "iteration-1" / "eval-1-task-1" / "with_skill" / f"run-{k}" / "grading.json").write_text("{broken")
    capsys.readouterr()
    main(["diff", str(base), str(new), "--json"])
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert [n for n in notes if "with_skill/run-2" in n and "left out" in n]
    assert [n for n in notes if "with_skill/run-3" in n and "left out" in n]


def test_a_pass_rate_exactly_at_the_threshold_holds(tmp_path):
    # with_skill's 3 runs pass 2 of 5, 1 of 1 and 1 of 1 gated assertions: the mean is
    # (0.4 + 1 + 1) / 3 = 0.8 exactly, the default min_pass_rate. The rule holds; it was
    # a FAIL printed as "80.0% ... below the 80.0% required".
    ws = tmp_path / "ws"
    write_run(ws / "eval-1" / "with_skill" / "run-1", ["pass", "pass", "fail", "fail", "fail"])
    for k in (1, 2, 3):
        if k > 1:
            write_run(ws / "eval-1" / "with_skill" / f"run-{k}", ["pass"])
        write_run(ws / "eval-1" / "without_skill" / f"run-{k}", ["fail"])
    code, doc = _aggregate(ws)
    assert doc["run_summary"]["with_skill"]["pass_rate"]["mean"] == 0.8
    rule = next(r for r in doc["release"]["reasons"] if r["rule"] == "pass_rate")
    assert rule["status"] == "ok", rule["message"]
    assert doc["release"]["decision"] == "CONDITIONAL PASS" and code == 3  # unstable: a 60-point spread


def test_the_report_mean_pass_rate_leaves_out_a_run_that_graded_nothing(tmp_path, capsys):
    # with_skill: eval 1's run passes its one assertion (1/1); eval 2's run has one
    # semantic assertion and no model, so nothing was graded. Over the runs that graded
    # something the mean pass rate (all graded) is 100 %, as aggregate says; the run with
    # nothing graded has no rate and is not a 0 % (which made it 50 %).
    from compare_workspace import build

    ws = build(tmp_path / "ws", {"with_skill": [["good"], ["good"]]})
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "task-1"\nexpect "replies": response contains "value-1"\n\n'
                     'eval 2 "task-2"\nexpect "The reply is polite"\n', encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules)])
    capsys.readouterr()
    assert main(["report", str(ws), "--format", "markdown", "-o", "-"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| with_skill"))
    assert row == "| with_skill | 1/2 | 1/1 | 1/1 | 1 | 100.00% |"
    code, doc = _aggregate(ws)
    assert doc["run_summary"]["with_skill"]["pass_rate_all_graded"]["mean"] == 1.0
