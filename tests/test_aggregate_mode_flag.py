"""``referee aggregate --mode quick`` decides in quick mode (2 runs per eval and
configuration), and every place the decision is shown says so: its console line,
benchmark.md and benchmark.json's release block, as its metadata and runs rule do."""

from __future__ import annotations

import json
from pathlib import Path

from compare_workspace import graded
from referee.engine.cli import main


def test_the_mode_given_is_the_mode_the_decision_names(tmp_path: Path, capsys):
    # Input: 2 runs per eval and configuration, aggregated with --mode quick. The runs
    # rule held ("at least 2 runs ... (quick mode)") while the decision's line,
    # benchmark.md and release.mode said "standard mode" (the release config's mode).
    workspace = graded(tmp_path, {"with_skill": [["good", "good"]] * 2, "without_skill": [["bad"] * 2] * 2})
    capsys.readouterr()
    assert main(["aggregate", str(workspace), "--primary", "with_skill", "--mode", "quick"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("PASS") and "(quick mode, rules release.toml@" in first
    document = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    assert document["release"]["mode"] == document["metadata"]["mode"] == "quick"
    assert "standard" not in (workspace / "benchmark.md").read_text(encoding="utf-8")
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 0
