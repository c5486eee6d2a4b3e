"""``diff`` does not say "no regression" when NEW left ungraded (no --llm) an assertion
BASE's gate counted: had it failed in NEW's runs, the eval would have regressed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"


def _base(tmp_path: Path, graded: bool) -> Path:
    """The example's benchmark.json; with ``graded``, as if eval 1's semantic assertion had
    been graded (and passed) in every with_skill run, as a grade with --llm writes it."""
    doc = json.loads((EXAMPLE / "benchmark.json").read_text(encoding="utf-8"))
    for run in doc["runs"]:
        if not graded or str(run["eval_id"]) != "1" or run["configuration"] != "with_skill":
            continue
        for item in run["expectations"]:
            if item["outcome"] == "not_graded":
                item.update(outcome="pass", passed=True, counted=True)
                result = run["result"]
                for name in ("passed", "total", "passed_all_graded", "total_all_graded"):
                    result[name] += 1
                result["not_graded"] -= 1
    path = tmp_path / "base.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _new(tmp_path: Path) -> Path:
    new = tmp_path / "new"
    shutil.copytree(EXAMPLE, new)
    return new


def test_an_assertion_counted_before_and_not_graded_now_cannot_be_told(tmp_path: Path, capsys):
    assert main(["diff", str(_base(tmp_path, True)), str(_new(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert "CANNOT TELL eval 1 with_skill" in out and "1#7 counted in the old state's gate, not graded" in out
    assert "no regression" not in out


def test_the_same_assertions_graded_on_both_sides_are_compared_as_before(tmp_path: Path, capsys):
    assert main(["diff", str(_base(tmp_path, False)), str(_new(tmp_path))]) == 0
    assert "no regression" in capsys.readouterr().out
