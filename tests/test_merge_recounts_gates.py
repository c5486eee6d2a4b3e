"""``referee merge`` decides (exit 0 or 1) from each run's gate: counts recounted
from the run's expectations. A grading.json whose stated gate disagrees with its
expectations was changed after its shard wrote it (its manifest's digest changed
to match), and the merge refuses it rather than count it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sharded import RULE_ARGS, sharded
from referee.engine.cli import main
from referee.engine.report.freshness import file_digest


def _raise_failed_gates(workspace: Path) -> int:
    """Every failing run's gate made all-passed, and its manifest's digest made to match."""
    edited = 0
    for manifest in sorted(workspace.glob("shard-*-of-*.json")):
        document = json.loads(manifest.read_text(encoding="utf-8"))
        for entry in document["runs"]:
            grading = workspace / entry["path"] / "grading.json"
            report = json.loads(grading.read_text(encoding="utf-8"))
            gate = report["gate"]
            if gate["total"] and gate["passed"] != gate["total"]:
                gate["passed"], gate["pass_rate"] = gate["total"], 1.0
                grading.write_text(json.dumps(report, indent=2), encoding="utf-8")
                entry["grading"] = file_digest(grading)
                edited += 1
        manifest.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return edited


def test_the_merge_of_honest_shards_fails_on_the_failing_runs(tmp_path: Path, capsys):
    workspace = sharded(tmp_path, 2)
    capsys.readouterr()
    assert main(["merge", str(workspace), *RULE_ARGS, "--check"]) == 1
    assert capsys.readouterr().out.startswith("FAIL  2 shards, 6 runs (3 passed, 3 failed)")


def test_gates_raised_by_hand_are_refused(tmp_path: Path, capsys):
    workspace = sharded(tmp_path, 2)
    assert _raise_failed_gates(workspace) == 3
    capsys.readouterr()
    code = main(["merge", str(workspace), *RULE_ARGS, "--check"])
    captured = capsys.readouterr()
    assert code == 2, captured.out
    assert "cannot be merged" in captured.err
    assert ("iteration-1/eval-1-book-flight/without_skill/run-1: grading.json's counts disagree with its "
            "expectations (gate.passed is 6, the expectations give 4") in captured.err


@pytest.mark.parametrize("field, said", [("run", "its run is null, not an object"),
                                         ("claims", "its claims is null, not a list")])
def test_a_report_edited_out_of_shape_is_refused_naming_the_field(tmp_path: Path, capsys, field, said):
    # A grading.json whose run block is null (its manifest's digest made to match):
    # merge stopped with "internal error: TypeError: 'NoneType' object is not subscriptable";
    # with claims null, "internal error: ValueError: this run was graded without its claims".
    workspace = sharded(tmp_path, 2)
    manifest = workspace / "shard-1-of-2.json"
    document = json.loads(manifest.read_text(encoding="utf-8"))
    entry = document["runs"][0]
    grading = workspace / entry["path"] / "grading.json"
    report = json.loads(grading.read_text(encoding="utf-8"))
    report[field] = None
    grading.write_text(json.dumps(report), encoding="utf-8")
    entry["grading"] = file_digest(grading)
    manifest.write_text(json.dumps(document), encoding="utf-8")
    capsys.readouterr()
    assert main(["merge", str(workspace), *RULE_ARGS, "--check"]) == 2
    err = capsys.readouterr().err
    assert f"changed: {entry['path']}/grading.json is not as referee writes it ({said})" in err
    assert "internal error" not in err
