"""``referee diff`` and ``aggregate --against FILE --fail-on-regression``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from compare_workspace import build, grade, rules
from referee.engine.cli import main
from referee.engine.compare.regress import Level, change

GOOD = [["good"] * 3] * 3
BASELINE = [["partial"] * 3] * 3


def run(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture(scope="module")
def states(tmp_path_factory) -> dict[str, Path]:
    """base: every run of the primary succeeds; new: eval 1 lost one run, eval 2 two."""
    root = tmp_path_factory.mktemp("states")
    rules_file = rules(root / "gen.rules", 3)
    base = build(root / "base", {"with_skill": GOOD, "without_skill": BASELINE})
    new = build(root / "new", {"with_skill": [["good", "good", "bad"], ["good", "bad", "bad"], ["good"] * 3],
                               "without_skill": BASELINE})
    for workspace in (base, new):
        grade(workspace, rules_file)
        assert main(["aggregate", str(workspace)]) in (0, 1, 3)
    return {"base": base, "new": new, "rules": rules_file, "root": root}


def test_one_flipped_run_is_no_regression_two_are(states, capsys):
    code, out = run(capsys, "diff", states["base"], states["new"])
    assert code == 1, out
    assert "one run    eval 1 with_skill: 3/3 runs succeeded (pass, pass^3 1.00) -> 2/3 runs succeeded " \
           "(pass, pass^3 0.00) (one run flipped: not a regression)" in out
    assert "REGRESSION eval 2 with_skill: 3/3 runs succeeded (pass, pass^3 1.00) -> 1/3 runs succeeded " \
           "(fail, pass^3 0.00)" in out
    assert "eval 3" not in out
    assert out.rstrip().endswith("REGRESSION: 1 eval of with_skill regressed")


def test_flipped_assertions_quote_both_sides(states, capsys):
    capsys.readouterr()
    assert main(["diff", str(states["base"]), str(states["new"]), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    flips = {f["key"]: f for f in doc["flipped_assertions"]}
    assert sorted(flips) == ["2#1", "2#2", "2#3"]  # eval 1 kept its majority: no flip
    flip = flips["2#1"]
    assert (flip["now"], flip["base"]["passed"], flip["new"]["passed"]) == ("fails", 3, 1)
    assert 'args.id is "E2"' in flip["base"]["evidence"] and 'args.id is "E102"' in flip["new"]["evidence"]
    assert doc["regressions"] == ["eval 2 with_skill: 3/3 runs succeeded (pass, pass^3 1.00) -> 1/3 runs "
                                  "succeeded (fail, pass^3 0.00)"]


def test_a_benchmark_file_is_a_state_too(states, capsys):
    code, out = run(capsys, "diff", states["base"] / "benchmark.json", states["new"])
    assert code == 1 and "REGRESSION eval 2 with_skill" in out
    code, out = run(capsys, "diff", states["base"] / "benchmark.json", states["base"])
    assert code == 0 and out.rstrip().endswith("no regression: 0 evals of with_skill regressed")


def test_aggregate_against_a_blessed_baseline(states, capsys):
    blessed = states["base"] / "benchmark.json"
    code, out = run(capsys, "aggregate", states["new"], "--check", "--against", blessed)
    assert "REGRESSION eval 2 with_skill" in out and "regression:" not in out
    code, out = run(capsys, "aggregate", states["new"], "--check", "--against", blessed, "--fail-on-regression")
    assert code == 1
    assert "FAIL regression: 1 eval(s) of with_skill regressed against benchmark.json: eval 2 with_skill" in out
    code, out = run(capsys, "aggregate", states["base"], "--check", "--against", blessed, "--fail-on-regression")
    assert "ok   regression: no eval of with_skill regressed against benchmark.json" in out
    assert main(["aggregate", str(states["new"]), "--check", "--fail-on-regression"]) == 2
    older = json.loads(blessed.read_text(encoding="utf-8"))
    older["metadata"]["rules"] = ["gen.rules@00000000"]
    (states["root"] / "other-rules.json").write_text(json.dumps(older), encoding="utf-8")
    code, out = run(capsys, "aggregate", states["new"], "--check", "--against", states["root"] / "other-rules.json")
    assert code == 2 and "graded by different rules (blessed other-rules.json: gen.rules@00000000;" in out
    assert "bless a new baseline" in out
    older["metadata"]["rules"] = [5]  # aggregate writes names: refused, never an internal error
    (states["root"] / "other-rules.json").write_text(json.dumps(older), encoding="utf-8")
    code, out = run(capsys, "aggregate", states["new"], "--check", "--against", states["root"] / "other-rules.json")
    assert code == 2 and "metadata.rules is [5], not a list of rules files" in out
    assert run(capsys, "diff", states["root"] / "other-rules.json", states["base"])[0] == 2


def test_different_rules_or_versions_are_refused_unless_told(states, capsys):
    other = states["root"] / "other"
    build(other, {"with_skill": GOOD, "without_skill": BASELINE})
    changed = states["root"] / "changed.rules"
    changed.write_text(states["rules"].read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    grade(other, changed)
    code, out = run(capsys, "diff", states["base"], other)
    assert code == 2 and "graded by different rules (BASE" in out and "--allow-different-rules" in out
    code, out = run(capsys, "diff", states["base"], other, "--allow-different-rules")
    assert code == 0 and "compared anyway (--allow-different-rules)" in out
    bench = json.loads((states["base"] / "benchmark.json").read_text(encoding="utf-8"))
    bench["metadata"]["grader"]["version"] = "0.0.1"
    older = states["root"] / "older.json"
    older.write_text(json.dumps(bench), encoding="utf-8")
    code, out = run(capsys, "diff", older, states["base"])
    assert code == 2 and "different referee versions" in out
    assert run(capsys, "diff", older, states["base"], "--allow-different-versions")[0] == 0


def test_the_json_is_byte_identical_wherever_the_states_lie(states, tmp_path, capsys):
    printed = []
    for place in ("one", "two/deeper"):
        for name in ("base", "new"):
            shutil.copytree(states[name], tmp_path / place / name)
        code, out = run(capsys, "diff", tmp_path / place / "base", tmp_path / place / "new", "--json")
        assert code == 1
        printed.append(out)
    assert printed[0] == printed[1] and str(tmp_path) not in printed[0]


def test_unreadable_states_are_usage_errors(states, tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text('{"metadata": {}, \n "runs": [}', encoding="utf-8")
    code, out = run(capsys, "diff", broken, states["base"])
    assert code == 2 and "broken.json: not valid JSON" in out and "line 2" in out
    assert run(capsys, "diff", tmp_path / "nowhere", states["base"])[0] == 2


@pytest.mark.parametrize("base,new,verdict", [
    ((3, 3), (2, 3), "one run"), ((3, 3), (1, 3), "regression"), ((2, 3), (1, 3), "one run"),
    ((2, 3), (0, 3), "regression"), ((1, 3), (3, 3), "improvement"), ((2, 4), (1, 4), "one run"),
    ((5, 5), (5, 5), "same"), ((4, 4), (2, 2), "same")])
def test_levels(base, new, verdict):
    assert change("1", "c", Level(*base), Level(*new)).verdict == verdict


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))))
def test_a_single_flipped_run_is_never_a_regression(case):
    n, successes = case
    assert change("1", "c", Level(successes, n), Level(successes - 1, n)).verdict in ("one run", "same")
