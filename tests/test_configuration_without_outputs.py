"""A configuration folder holding a run's files (transcript.md, response.md,
timing.json) but no ``outputs/`` is not a run; it is said so, never dropped without
a word: its eval's other configurations are found, and grading them alone would
show a benchmark with one side missing and no reason."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.workspace import discover


def _workspace(root: Path) -> Path:
    (root / "iteration-1" / "eval-1" / "with_skill" / "outputs").mkdir(parents=True)
    (root / "iteration-1" / "eval-1" / "with_skill" / "outputs" / "response.md").write_text("LX2084\n")
    baseline = root / "iteration-1" / "eval-1" / "without_skill"
    baseline.mkdir()
    (baseline / "transcript.md").write_text("## Final Result\nLX2084\n", encoding="utf-8")
    (baseline / "timing.json").write_text('{"total_tokens": 5}', encoding="utf-8")
    # Folders that hold no run's file stay quiet, as they were.
    (root / "iteration-1" / "eval-1" / "inputs").mkdir()
    (root / "iteration-1" / "eval-1" / "inputs" / "flights.json").write_text("[]", encoding="utf-8")
    return root


def test_a_configuration_with_a_transcript_and_no_outputs_is_warned(tmp_path):
    found = discover(_workspace(tmp_path))
    assert [run.id.rel for run in found.runs] == ["iteration-1/eval-1/with_skill"]
    assert [(p.code, p.path) for p in found.problems] == [("no-outputs", "iteration-1/eval-1/without_skill")]
    assert "transcript.md" in found.problems[0].message


def test_grade_says_so(tmp_path, capsys):
    rules = tmp_path.parent / "one.rules"
    rules.write_text('eval 1\nexpect "names LX2084": response contains "LX2084"\n', encoding="utf-8")
    main(["grade", str(_workspace(tmp_path)), "--rules", str(rules), "--check"])
    assert "iteration-1/eval-1/without_skill" in capsys.readouterr().err
