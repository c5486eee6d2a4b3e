"""The reports committed in the example workspace are what the Quick start writes.

They show a reader what referee produces, and they pin its output: grading the
example anew, at another path and on another machine, must give the same bytes.
After a deliberate change to what referee writes, regenerate them with the
Quick start's first command (its `referee grade ...` part) and review the diff.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO

ARGS = ["grade", "examples/booking-skill-workspace", "--rules", "examples/booking-skill/booking.rules",
        "--evals", "examples/booking-skill/evals/evals.json"]
REPORTS = ("grading.json", "ground_truth.json")


def _reports(root: Path) -> dict[str, bytes]:
    workspace = root / "examples" / "booking-skill-workspace"
    return {str(p.relative_to(workspace)): p.read_bytes()
            for name in REPORTS for p in sorted(workspace.rglob(name))}


def test_quick_start_args_are_the_readme_s():
    assert "referee " + " ".join(ARGS) in (REPO / "README.md").read_text(encoding="utf-8")


def test_committed_example_reports_are_reproduced(tmp_path: Path):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    committed = _reports(tmp_path)
    assert len(committed) == 12, "each of the 6 example runs has both reports committed"
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", *ARGS, "--jobs", "2"], cwd=tmp_path,
                          capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert done.returncode == 1, done.stderr  # the runs without the skill fail on purpose
    regraded = _reports(tmp_path)
    changed = sorted(k for k in committed if committed[k] != regraded[k])
    assert not changed, f"regenerate the example reports (see this file's docstring): {changed}"
