"""``referee diff --primary C`` where neither state has a run of C (a misspelt name):
nothing of C was compared, so the diff cannot say C did not regress. It is a usage
error naming the configurations the states have, never "no regression"."""

from __future__ import annotations

from pathlib import Path

import pytest

from compare_workspace import build, grade, rules
from referee.engine.cli import main


@pytest.mark.parametrize("as_benchmark", [False, True])
def test_a_primary_neither_state_has_is_a_usage_error(tmp_path: Path, capsys, as_benchmark: bool):
    # Input: with_skill 3/3 in BASE, 0/3 in NEW (a regression, exit 1), diffed with
    # --primary with_skil. Before: "no regression: 0 evals of with_skil regressed",
    # exit 0, with with_skill's regression listed as "(not the primary)".
    rules_file = rules(tmp_path / "gen.rules", 1)
    base = build(tmp_path / "base", {"with_skill": [["good"] * 3], "without_skill": [["bad"]]})
    new = build(tmp_path / "new", {"with_skill": [["bad"] * 3], "without_skill": [["bad"]]})
    grade(base, rules_file)
    grade(new, rules_file)
    if as_benchmark:
        assert main(["aggregate", str(base)]) in (0, 3)
        base = base / "benchmark.json"
    assert main(["diff", str(base), str(new), "--primary", "with_skill"]) == 1
    capsys.readouterr()
    assert main(["diff", str(base), str(new), "--primary", "with_skil"]) == 2
    err = capsys.readouterr().err
    assert "--primary with_skil: no run of that configuration" in err
    assert "with_skill, without_skill" in err
