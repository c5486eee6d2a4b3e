"""Runs graded by different referee versions are not compared silently: a version
may read a check otherwise, as a change of the rules would. ``aggregate`` refuses them
unless --allow-mixed-rules (as ``diff`` refuses states graded by different versions),
and ``report`` lists them among its problems."""

from __future__ import annotations

import json
from pathlib import Path

from named_folders import configurations
from referee.engine.cli import main


def _graded(tmp_path: Path, capsys) -> Path:
    ws, rules = configurations(tmp_path, ["with_skill", "without_skill"], runs=2)
    main(["grade", str(ws), "--rules", str(rules)])
    capsys.readouterr()
    return ws


def _version(grading: Path, version: str) -> None:
    document = json.loads(grading.read_text(encoding="utf-8"))
    document["grader"]["version"] = version
    grading.write_text(json.dumps(document, indent=2), encoding="utf-8")


def test_runs_graded_by_two_referee_versions_are_a_mix(tmp_path, capsys):
    # Input: the without_skill runs' grading.json written by referee 0.0.9 (graded
    # before an upgrade), the with_skill runs' by this one. aggregate compared them
    # (exit 3, a benchmark written); now it refuses (exit 2), naming the runs of each.
    ws = _graded(tmp_path, capsys)
    for number in (1, 2):
        _version(ws / "eval-1" / "without_skill" / f"run-{number}" / "grading.json", "0.0.9")
    assert main(["aggregate", str(ws), "--mode", "quick"]) == 2
    err = capsys.readouterr().err
    assert "graded by different referee versions: 0.0.9 graded 2 runs (eval-1/without_skill/run-1, " in err
    assert not (ws / "benchmark.json").exists()
    assert main(["aggregate", str(ws), "--mode", "quick", "--allow-mixed-rules"]) == 0
    notes = json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))["notes"]
    assert any(n.startswith("graded by different referee versions, compared anyway") for n in notes)
    (ws / "benchmark.json").unlink()
    capsys.readouterr()
    main(["report", str(ws), "--format", "markdown", "-o", "-"])
    assert "graded by different referee versions: 0.0.9 graded 2 runs" in capsys.readouterr().out


def test_runs_graded_by_one_version_are_no_mix(tmp_path, capsys):
    ws = _graded(tmp_path, capsys)
    assert main(["aggregate", str(ws), "--mode", "quick"]) == 0
    assert "versions" not in capsys.readouterr().err
