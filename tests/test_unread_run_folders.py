"""A run folder that cannot be read (a ``run-<n>`` with no ``outputs/``: its outputs
lost or never written, the folder empty or symlinked) is a run whose verdicts are
unknown. It was skipped with a warning, and every decision was taken on the runs
left: ``grade --check`` passed with "2 of 2 runs passed" while a third run's folder
sat there unread. Now the gate, ``report`` and ``aggregate`` count it as not read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from referee.engine.cli import main

RULES = 'eval 1\nexpect "names the flight": response contains "LX2084"\n'


def _workspace(root: Path, unread: str = "timing") -> Path:
    """eval-1 with two readable runs that pass, and with_skill/run-2 that cannot be read."""
    for config in ("with_skill", "without_skill"):
        outputs = root / "iteration-1" / "eval-1" / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text("Booked LX2084.\n", encoding="utf-8")
    lost = root / "iteration-1" / "eval-1" / "with_skill" / "run-2"
    if unread == "symlink":
        os.symlink(root / "iteration-1" / "eval-1" / "with_skill" / "run-1", lost)
    else:
        lost.mkdir()
        if unread == "timing":
            (lost / "timing.json").write_text('{"total_tokens": 5}', encoding="utf-8")
    return root


def _grade(tmp_path: Path, capsys, *extra: str, unread: str = "timing") -> tuple[int, dict]:
    rules = tmp_path / "one.rules"
    rules.write_text(RULES, encoding="utf-8")
    code = main(["grade", str(_workspace(tmp_path / "ws", unread)), "--rules", str(rules), "--check", "--json",
                 *extra])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("unread", ["timing", "empty", "symlink"])
def test_the_gate_does_not_pass_over_a_run_folder_it_cannot_read(tmp_path: Path, capsys, unread: str):
    code, document = _grade(tmp_path, capsys, unread=unread)
    assert document["totals"]["gate_passed"] == document["totals"]["gate_total"] == 2
    assert document["unread_runs"] == ["iteration-1/eval-1/with_skill/run-2"]
    assert code == document["exit_code"] == 1


def test_the_terminal_says_why(tmp_path: Path, capsys):
    rules = tmp_path / "one.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["grade", str(_workspace(tmp_path / "ws")), "--rules", str(rules), "--check"]) == 1
    out = capsys.readouterr().out
    assert ("not a pass: 1 run folder the gate counts could not be read (see the warnings): "
            "iteration-1/eval-1/with_skill/run-2") in out


def test_a_folder_of_a_configuration_the_gate_does_not_count_is_context(tmp_path: Path, capsys):
    code, document = _grade(tmp_path, capsys, "--primary", "without_skill")
    assert (code, document["unread_runs"]) == (0, [])


def test_a_folder_the_selection_leaves_out_is_not_counted(tmp_path: Path, capsys):
    code, document = _grade(tmp_path, capsys, "--config", "without_skill")
    assert (code, document["unread_runs"]) == (0, [])


def test_without_the_folder_the_gate_passes(tmp_path: Path, capsys):
    workspace = _workspace(tmp_path / "ws")
    (workspace / "iteration-1" / "eval-1" / "with_skill" / "run-2" / "timing.json").unlink()
    (workspace / "iteration-1" / "eval-1" / "with_skill" / "run-2").rmdir()
    rules = tmp_path / "one.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules), "--check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unread_runs"] == []


def test_report_and_aggregate_count_it_as_not_read(tmp_path: Path, capsys):
    workspace = _workspace(tmp_path / "ws")
    rules = tmp_path / "one.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules)]) == 1
    capsys.readouterr()
    junit = tmp_path / "junit.xml"
    assert main(["report", str(workspace), "--format", "junit", "--output", str(junit)]) == 1
    assert main(["aggregate", str(workspace)]) != 0
    benchmark = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    assert benchmark["release"]["decision"] != "PASS"
    assert [u["path"] for u in benchmark["unusable_runs"]] == ["iteration-1/eval-1/with_skill/run-2"]


def test_the_merge_of_shards_counts_it_as_not_read(tmp_path: Path, capsys):
    workspace = _workspace(tmp_path / "ws")
    rules = tmp_path / "one.rules"
    rules.write_text(RULES, encoding="utf-8")
    for index in (1, 2):
        assert main(["grade", str(workspace), "--rules", str(rules), "--shard", f"{index}/2"]) == 0
    capsys.readouterr()
    assert main(["merge", str(workspace), "--rules", str(rules)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL  2 shards, 2 runs (2 passed, 0 failed); gated assertions 2/2 passed")
    assert "not a pass: 1 run folder the gate counts could not be read" in out
