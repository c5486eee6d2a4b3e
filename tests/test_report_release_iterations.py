"""``referee aggregate`` decides on one iteration of a workspace (the last, or
``--iteration N``). ``referee report`` of the whole workspace shows the runs of every
iteration: the release decision is then not about the runs it counts, and is left out
(the decision is the gate's over them, with a problem saying why), never a PASS on
top of another iteration's failures."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = "## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"path\": \"a\"}\nReturn: {}\nStatus: success\n"


def _two_iterations(tmp_path: Path) -> Path:
    """iteration-1: with_skill fails; iteration-2: with_skill passes (3 runs each)."""
    ws = tmp_path / "ws"
    for iteration, response in (("iteration-1", "nope"), ("iteration-2", "all done")):
        for config in ("with_skill", "without_skill"):
            for number in (1, 2, 3):
                outputs = ws / iteration / "eval-1-x" / config / f"run-{number}" / "outputs"
                outputs.mkdir(parents=True)
                (outputs / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
                text = response if config == "with_skill" else "nope"
                (outputs / "response.md").write_text(text + "\n", encoding="utf-8")
    rules = tmp_path / "x.rules"
    rules.write_text('eval 1 "x"\nexpect "says done": response contains "done"\n', encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules)])
    assert main(["aggregate", str(ws)]) == 0  # iteration 2: PASS
    return ws


def test_the_runs_of_another_iteration_leave_the_decision_out(tmp_path, capsys):
    # Input: the workspace above. report printed "referee: PASS" (iteration 2's release
    # decision) over "with_skill: 3 of 6 runs passed", and JUnit's three failures of
    # iteration 1, and exited 0.
    ws = _two_iterations(tmp_path)
    capsys.readouterr()
    code = main(["report", str(ws), "--format", "markdown", "-o", "-"])
    captured = capsys.readouterr()
    assert code == 1
    assert "## referee: FAIL" in captured.out
    assert "decided on iteration 2 alone; runs of iteration 1 are shown" in captured.err


def test_one_iteration_keeps_the_decision(tmp_path, capsys):
    ws = _two_iterations(tmp_path)
    for name in ("benchmark.json", "benchmark.md"):
        (ws / name).unlink()
    for path in sorted((ws / "iteration-1").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (ws / "iteration-1").rmdir()
    assert main(["aggregate", str(ws)]) == 0
    capsys.readouterr()
    assert main(["report", str(ws), "--format", "markdown", "-o", "-"]) == 0
    assert "## referee: PASS" in capsys.readouterr().out
