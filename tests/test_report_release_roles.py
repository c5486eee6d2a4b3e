"""benchmark.json's release decision is about the primary and baseline ``referee
aggregate`` decided with. ``report --primary`` (or ``--baseline``) naming other roles
counts other runs in the gate: the decision is then the gate's over them, as with no
benchmark.json, and a problem says why; never the release decision made for another
configuration, which could pass where the runs the report counts failed."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = "## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"path\": \"a\"}\nReturn: {}\nStatus: success\n"


def _aggregated(tmp_path: Path) -> Path:
    """with_skill passes, without_skill fails; aggregate decides CONDITIONAL PASS (one run each)."""
    ws = tmp_path / "ws"
    for config, response in (("with_skill", "all done"), ("without_skill", "nope")):
        outputs = ws / "eval-1-x" / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
        (outputs / "response.md").write_text(response + "\n", encoding="utf-8")
    rules = tmp_path / "x.rules"
    rules.write_text('eval 1 "x"\nexpect "says done": response contains "done"\n', encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules)])
    assert main(["aggregate", str(ws)]) == 3
    return ws


def test_another_primary_is_decided_by_its_own_runs(tmp_path, capsys):
    # Input: benchmark.json decided CONDITIONAL PASS for with_skill; report --primary
    # without_skill (whose one run fails) printed "referee: CONDITIONAL PASS" and exited 3.
    ws = _aggregated(tmp_path)
    capsys.readouterr()
    code = main(["report", str(ws), "--format", "markdown", "-o", "-", "--primary", "without_skill"])
    captured = capsys.readouterr()
    assert code == 1
    assert "## referee: FAIL" in captured.out
    assert "decided with primary with_skill, not without_skill" in captured.err


def test_the_roles_benchmark_json_records_keep_its_decision(tmp_path, capsys):
    ws = _aggregated(tmp_path)
    capsys.readouterr()
    for flags in ([], ["--primary", "with_skill"], ["--primary", "with_skill", "--baseline", "without_skill"]):
        assert main(["report", str(ws), "--format", "markdown", "-o", "-", *flags]) == 3
        assert "## referee: CONDITIONAL PASS" in capsys.readouterr().out



def test_a_baseline_whose_runs_cannot_be_read_keeps_the_decision(tmp_path, capsys):
    # The baseline's one grading.json cannot be read when aggregate decides (a run it
    # counts nowhere, a reason of its own): the report finds no such configuration
    # among the runs it reads, yet the decision is the one made with it, as no role
    # was given otherwise.
    ws = _aggregated(tmp_path)
    (ws / "eval-1-x" / "without_skill" / "run-1" / "grading.json").write_text("{", encoding="utf-8")
    assert main(["aggregate", str(ws)]) == 1  # FAIL: no baseline to compare with
    capsys.readouterr()
    for flags in ([], ["--primary", "with_skill"]):
        assert main(["report", str(ws), "--format", "markdown", "-o", "-", *flags]) == 1
        captured = capsys.readouterr()
        assert "## referee: FAIL" in captured.out
        assert "release decision left out" not in captured.err
