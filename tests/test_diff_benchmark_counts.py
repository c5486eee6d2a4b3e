"""``referee diff`` and ``aggregate --against`` read a benchmark.json's runs by
their expectations: a run's stated ``result`` (passed, failed, total,
gate_errors) must be the count its expectations give, or the file was changed
after ``aggregate`` wrote it and is refused, never believed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import build, grade, rules
from referee.engine.cli import main


@pytest.fixture(scope="module")
def states(tmp_path_factory) -> dict[str, Path]:
    """base: every primary run succeeds; new: every primary run of eval 1 fails."""
    root = tmp_path_factory.mktemp("bench-counts")
    rules_file = rules(root / "gen.rules", 1)
    base = build(root / "base", {"with_skill": [["good"] * 3], "without_skill": [["bad"] * 3]})
    new = build(root / "new", {"with_skill": [["bad"] * 3], "without_skill": [["bad"] * 3]})
    for workspace in (base, new):
        grade(workspace, rules_file)
        main(["aggregate", str(workspace), "--primary", "with_skill"])
    return {"base": base, "new": new, "root": root}


def _edited(states, name: str, edit) -> Path:
    doc = json.loads((states[name] / "benchmark.json").read_text(encoding="utf-8"))
    for run in doc["runs"]:
        if run["configuration"] == "with_skill":
            edit(run)
    path = states["root"] / f"{name}-edited.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _said(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _all_passed(run: dict) -> None:
    result = run["result"]
    result["passed"], result["failed"], result["pass_rate"] = result["total"], 0, 1.0


def test_the_honest_benchmarks_show_the_regression(states, capsys):
    code, out = _said(capsys, "diff", states["base"] / "benchmark.json", states["new"] / "benchmark.json")
    assert code == 1 and "REGRESSION eval 1 with_skill" in out


def test_a_result_raised_by_hand_is_refused(states, capsys):
    forged = _edited(states, "new", _all_passed)
    code, out = _said(capsys, "diff", states["base"] / "benchmark.json", forged)
    assert code == 2, out
    assert "new-edited.json" in out and "result.passed is 3, its expectations give 0" in out
    code, out = _said(capsys, "aggregate", states["new"], "--check", "--against", forged, "--fail-on-regression")
    assert code == 2 and "result.passed is 3, its expectations give 0" in out


def test_an_outcome_that_disagrees_with_passed_is_refused(states, capsys):
    def passed_outcome(run: dict) -> None:
        for e in run["expectations"]:
            e["outcome"] = "pass"
        _all_passed(run)

    code, out = _said(capsys, "diff", states["base"] / "benchmark.json", _edited(states, "new", passed_outcome))
    assert code == 2 and "has passed False with outcome 'pass'" in out


def test_a_blessed_baseline_lowered_by_hand_is_refused(states, capsys):
    def none_passed(run: dict) -> None:
        result = run["result"]
        result["passed"], result["failed"], result["pass_rate"] = 0, result["total"], 0.0

    code, out = _said(capsys, "diff", _edited(states, "base", none_passed), states["new"])
    assert code == 2 and "result.passed is 0, its expectations give 3" in out


@pytest.mark.parametrize("edit, said", [
    (lambda doc: doc.update(runs=None), "its runs is null, not a list"),
    (lambda doc: doc.update(metadata=None), "its metadata is null, not an object"),
    (lambda doc: doc["runs"][0].update(result={}), "its runs[0].result.passed is missing"),
    (lambda doc: doc.update(unusable_runs="x"), 'its unusable_runs is "x", not a list'),
])
def test_a_blessed_benchmark_edited_out_of_shape_names_the_field(states, capsys, edit, said):
    # aggregate --against printed "(TypeError: 'NoneType' object is not iterable)" for runs: null.
    doc = json.loads((states["base"] / "benchmark.json").read_text(encoding="utf-8"))
    edit(doc)
    blessed = states["root"] / "blessed.json"
    blessed.write_text(json.dumps(doc), encoding="utf-8")
    for args in (("aggregate", states["new"], "--check", "--against", blessed), ("diff", blessed, states["new"])):
        code, out = _said(capsys, *args)
        assert code == 2 and said in out and "Error" not in out, out
