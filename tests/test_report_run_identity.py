"""``report`` names a run by its place in the workspace (eval, configuration, run
number), as ``aggregate`` and ``compare`` do, never by the ``run`` its grading.json
names: an edited file cannot move a failing primary run into the baseline, and a
folder renamed since the grade is shown by the name it has."""

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


def test_a_failing_primary_run_whose_grading_names_the_baseline_still_fails_the_primary(tmp_path, capsys):
    # Input: with_skill/run-2 fails; its grading.json edited to say "configuration":
    # "without_skill". report --primary with_skill counted it as the baseline's and
    # said PASS (exit 0); now it is with_skill's run, as its folder says: FAIL (exit 1).
    workspace, grading = _graded(tmp_path, capsys)
    document = json.loads(grading.read_text(encoding="utf-8"))
    document["run"]["configuration"] = "without_skill"
    grading.write_text(json.dumps(document, indent=2), encoding="utf-8")
    for fmt in ("markdown", "junit", "github", "html"):
        assert main(["report", str(workspace), "--primary", "with_skill", "--format", fmt, "-o", "-"]) == 1
        out = capsys.readouterr().out
        assert "eval-1/with_skill/run-2" in out
    assert main(["report", str(workspace), "--primary", "with_skill", "--format", "markdown", "-o", "-"]) == 1
    out = capsys.readouterr().out
    assert "## referee: FAIL" in out and "| with_skill (primary) | 1/2 |" in out


def test_a_configuration_renamed_since_the_grade_is_shown_by_its_name(tmp_path, capsys):
    # Input: without_skill renamed "baseline" after the grade. report showed its runs
    # as without_skill (and refused --primary with_skill --baseline baseline), while
    # aggregate names them baseline.
    workspace, _ = _graded(tmp_path, capsys)
    (workspace / "eval-1" / "without_skill").rename(workspace / "eval-1" / "baseline")
    argv = ["--primary", "with_skill", "--baseline", "baseline", "--format", "markdown", "-o", "-"]
    assert main(["report", str(workspace), *argv]) == 1
    out = capsys.readouterr().out
    assert "| baseline (baseline: context) | 2/2 |" in out and "without_skill" not in out
