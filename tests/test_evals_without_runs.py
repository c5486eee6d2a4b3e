"""An eval the rules check that no run of the workspace matches (its runs never made,
or named otherwise) was passed over without a word: rules for evals 1 and 2 over a
workspace holding eval 1's runs alone gave "1 run (1 passed)" and exit 0. The gate
now does not pass on it, unless the evals are chosen (--eval)."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

RULES = ('eval 1\nexpect "names the flight": response contains "LX2084"\n\n'
         'eval 2\nexpect "names the fare": response contains "EUR"\n')


def _workspace(root: Path) -> tuple[Path, Path]:
    outputs = root / "ws" / "iteration-1" / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("Booked LX2084.\n", encoding="utf-8")
    rules = root / "two.rules"
    rules.write_text(RULES, encoding="utf-8")
    return root / "ws", rules


def test_an_eval_with_no_run_is_no_pass(tmp_path: Path, capsys):
    workspace, rules = _workspace(tmp_path)
    assert main(["grade", str(workspace), "--rules", str(rules), "--check"]) == 1
    assert "not a pass: the rules check eval '2', which no run graded matches" in capsys.readouterr().out
    assert main(["grade", str(workspace), "--rules", str(rules), "--check", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert (document["evals_without_runs"], document["exit_code"]) == (["2"], 1)


def test_evals_chosen_are_the_evals_graded(tmp_path: Path, capsys):
    workspace, rules = _workspace(tmp_path)
    assert main(["grade", str(workspace), "--rules", str(rules), "--check", "--eval", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["evals_without_runs"] == []


def test_the_merge_of_shards_says_so_too(tmp_path: Path, capsys):
    workspace, rules = _workspace(tmp_path)
    for index in (1, 2):
        assert main(["grade", str(workspace), "--rules", str(rules), "--shard", f"{index}/2"]) == 0
    capsys.readouterr()
    assert main(["merge", str(workspace), "--rules", str(rules)]) == 1
    assert "not a pass: the rules check eval '2'" in capsys.readouterr().out


def test_a_folder_inside_an_eval_chooses_its_eval(tmp_path: Path, capsys):
    workspace, rules = _workspace(tmp_path)
    for chosen in (workspace / "iteration-1" / "eval-1", workspace / "iteration-1" / "eval-1" / "with_skill" / "run-1"):
        assert main(["grade", str(chosen), "--rules", str(rules), "--check", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["evals_without_runs"] == []


def test_an_eval_whose_primary_run_is_missing_is_no_pass(tmp_path: Path, capsys):
    workspace, rules = _workspace(tmp_path)
    baseline = workspace / "iteration-1" / "eval-2" / "without_skill" / "run-1" / "outputs"
    baseline.mkdir(parents=True)
    (baseline / "response.md").write_text("Fare: 120 EUR.\n", encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules), "--check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["evals_without_runs"] == []
    assert main(["grade", str(workspace), "--rules", str(rules), "--check", "--json", "--primary", "with_skill"]) == 1
    assert json.loads(capsys.readouterr().out)["evals_without_runs"] == ["2"]
