"""A workspace whose only graded configuration is named as a baseline.

The real internalize-skill workspace (yamcodes/arkenv, tests/fixtures/real) has, in
iteration 1, ``without_skill/`` with its outputs and ``with_skill/`` holding only a
grading script's ``run-1/grading.json``: its outputs were never committed, so its
run cannot be read (a ``no-outputs`` warning). ``aggregate`` once took the one
configuration left, the baseline, for the skill under test and decided on it ("FAIL
without_skill ... one configuration: no baseline"). A lone configuration named as a
baseline (``without_X``, ``old_X``, ``no_X``, ``baseline``) is not taken for the
skill unless ``--primary`` names it; other lone names still are. And the run folder
that cannot be read is counted as such: with_skill is the skill, its run not
counted, and the release decision FAILs on it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.decision.configurations import choose
from referee.engine.usage import UsageError

REAL = Path(__file__).parent / "fixtures" / "real" / "internalize-skill-workspace"


@pytest.mark.parametrize("name", ["without_skill", "old_skill", "no_skill", "baseline", "Without-Docs"])
def test_a_lone_baseline_is_not_taken_for_the_skill(name: str):
    with pytest.raises(UsageError, match=f"--primary {name}"):
        choose([name])
    assert choose([name], primary=name).primary == name


@pytest.mark.parametrize("name", ["with_skill", "new_skill", "skill", "oldies", "nothing", "baseline_v2"])
def test_a_lone_configuration_of_another_name_is_the_skill(name: str):
    assert choose([name]).primary == name


def test_aggregate_of_the_real_iteration_whose_skill_run_was_never_committed(tmp_path: Path, capsys):
    workspace = tmp_path / "ws"
    shutil.copytree(REAL, workspace)
    assert main(["grade", str(workspace), "--rules", str(workspace / "internalize.rules")]) == 1
    capsys.readouterr()
    assert main(["aggregate", str(workspace), "--iteration", "1"]) == 1
    benchmark = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    assert benchmark["metadata"]["primary"] == "with_skill"
    assert [u["path"] for u in benchmark["unusable_runs"]] == ["iteration-1/eval-1/with_skill/run-1"]
    assert "not counted" in capsys.readouterr().err
    assert main(["aggregate", str(workspace), "--iteration", "1", "--primary", "without_skill"]) == 1
    benchmark = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    assert benchmark["metadata"]["primary"] == "without_skill"
