"""``referee diff`` and ``aggregate --against`` when NEW has no counted run of an eval
of the primary that BASE has: it was not run, its reports could not be read, or
nothing counted in them. Such an eval cannot be shown not to have got worse, so it
is judged as if its runs had failed (as many as BASE had): a level BASE reached
with more than one success is a regression, never a silent "no regression"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import build, grade, rules
from referee.engine.cli import main


def _run(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out


@pytest.fixture
def states(tmp_path: Path) -> dict[str, Path]:
    # BASE: evals 1 and 2, with_skill 3 runs that all succeed. NEW: eval 1 the same,
    # and no run of eval 2 at all (without_skill too, so aggregate does not know of it).
    rules_file = rules(tmp_path / "gen.rules", 2)
    base = build(tmp_path / "base", {"with_skill": [["good"] * 3] * 2, "without_skill": [["bad"] * 3] * 2})
    new = build(tmp_path / "new", {"with_skill": [["good"] * 3], "without_skill": [["bad"] * 3]})
    quick = tmp_path / "quick.toml"
    quick.write_text('mode = "quick"\n', encoding="utf-8")
    for workspace in (base, new):
        grade(workspace, rules_file)
        assert main(["aggregate", str(workspace), "--release-config", str(quick)]) == 0
    return {"base": base, "new": new, "quick": quick}


def test_an_eval_of_the_primary_missing_from_new_is_a_regression(states, capsys):
    code, out = _run(capsys, "diff", states["base"], states["new"])
    assert code == 1, out
    assert "REGRESSION eval 2 with_skill: 3/3 runs succeeded (pass, pass^3 1.00) -> no run counted" in out
    assert out.rstrip().endswith("REGRESSION: 1 eval of with_skill regressed")
    code, out = _run(capsys, "diff", states["base"] / "benchmark.json", states["new"] / "benchmark.json", "--json")
    assert code == 1
    change = json.loads(out)["changes"][0]
    assert (change["eval_id"], change["verdict"], change["new"]) == ("2", "regression", {"succeeded": 0, "runs": 0})


def test_aggregate_against_a_blessed_benchmark_fails_on_it(states, capsys):
    code, out = _run(capsys, "aggregate", states["new"], "--release-config", states["quick"], "--check",
                     "--against", states["base"] / "benchmark.json", "--fail-on-regression")
    assert code == 1 and "FAIL regression: 1 eval(s) of with_skill regressed" in out.replace("  ", " ")


def test_a_baseline_configuration_missing_from_new_is_listed_only(states, capsys):
    # The baseline's changes never count: eval 2 without_skill had no success to lose,
    # and with_skill ran eval 2 in NEW as in BASE.
    new = states["new"]
    build(new, {"with_skill": [[], ["good"] * 3]})
    grade(new, new.parent / "gen.rules")
    code, out = _run(capsys, "diff", states["base"], new)
    assert code == 0, out
    assert out.rstrip().endswith("no regression: 0 evals of with_skill regressed")


def test_a_level_that_cannot_fall_is_no_regression_and_is_noted(tmp_path: Path, capsys):
    # BASE eval 2: 1 of 3 runs succeeded (fail, pass^3 0); NEW has none of eval 2: taken
    # as 0 of 3 it is the same level, so no regression, but the diff says it is missing.
    rules_file = rules(tmp_path / "gen.rules", 2)
    base = build(tmp_path / "base", {"with_skill": [["good"] * 3, ["good", "bad", "bad"]]})
    new = build(tmp_path / "new", {"with_skill": [["good"] * 3]})
    for workspace in (base, new):
        grade(workspace, rules_file)
    code, out = _run(capsys, "diff", base, new, "--primary", "with_skill")
    assert code == 0, out
    assert "note: NEW new: eval 2 with_skill has no run counted (BASE base has 3): judged as if they failed" in out
