"""A grading.json names the run it graded (``run``: eval, configuration, run number).
``report`` shows a run by its place in the workspace, as ``aggregate`` and ``compare``
do: a grading.json naming another run was changed, or copied from that run, after
referee wrote it, and is refused, never counted under the configuration it names."""

from __future__ import annotations

import json
from pathlib import Path

from named_folders import configurations
from referee.engine.cli import main


def _graded(tmp_path: Path, capsys) -> tuple[Path, Path]:
    """with_skill (run-2 fails: it answers "no") and without_skill, graded."""
    workspace, rules = configurations(tmp_path, ["with_skill", "without_skill"], runs=2)
    (workspace / "eval-1" / "with_skill" / "run-2" / "outputs" / "response.md").write_text("no\n", encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules), "--primary", "with_skill"]) == 1
    capsys.readouterr()
    return workspace, workspace / "eval-1" / "with_skill" / "run-2" / "grading.json"


def _edit_run(grading: Path, **fields) -> None:
    document = json.loads(grading.read_text(encoding="utf-8"))
    document["run"].update(fields)
    grading.write_text(json.dumps(document, indent=2), encoding="utf-8")


def test_a_failing_primary_run_whose_grading_names_the_baseline_is_refused(tmp_path, capsys):
    # Input: with_skill/run-2 fails; its grading.json edited to say "configuration":
    # "without_skill". report --primary with_skill counted it as the baseline's and
    # said PASS (exit 0); now it refuses the file (exit 2), naming it.
    workspace, grading = _graded(tmp_path, capsys)
    _edit_run(grading, configuration="without_skill")
    for fmt in ("markdown", "junit", "github"):
        assert main(["report", str(workspace), "--primary", "with_skill", "--format", fmt, "-o", "-"]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert "with_skill/run-2/grading.json" in captured.err
        assert "configuration" in captured.err and "without_skill" in captured.err


def test_a_grading_copied_from_another_run_number_is_refused(tmp_path, capsys):
    # Input: with_skill/run-1 (passing) copied over as with_skill/run-3, its
    # grading.json naming run 1: the same run counted twice. Now refused.
    workspace, grading = _graded(tmp_path, capsys)
    (workspace / "eval-1" / "with_skill" / "run-2" / "outputs" / "response.md").write_text("ok\n", encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules")]) == 0
    capsys.readouterr()
    copy = workspace / "eval-1" / "with_skill" / "run-3"
    (copy / "outputs").mkdir(parents=True)
    for name in ("outputs/response.md", "outputs/transcript.md", "grading.json", "ground_truth.json"):
        (copy / name).write_bytes((workspace / "eval-1" / "with_skill" / "run-1" / name).read_bytes())
    assert main(["report", str(workspace), "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert "with_skill/run-3/grading.json" in err and "run_number" in err


def test_a_grading_that_names_its_own_run_is_reported(tmp_path, capsys):
    workspace, _ = _graded(tmp_path, capsys)
    assert main(["report", str(workspace), "--primary", "with_skill", "--format", "markdown", "-o", "-"]) == 1
    assert "## referee: FAIL" in capsys.readouterr().out
