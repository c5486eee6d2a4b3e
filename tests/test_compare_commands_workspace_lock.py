"""``diff``, ``compare`` and ``analyze`` read the gradings under the lock
``grade`` holds while it writes, as ``aggregate`` and ``report`` do: read while a grade
is writing, a workspace can hold runs graded by old rules beside runs graded by new ones."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import REPO
from held_lock import held_elsewhere
from referee.engine.cli import main
from referee.engine.report import lock

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"



@pytest.mark.parametrize("command", [
    lambda ws, other: ["diff", str(other), str(ws)],
    lambda ws, other: ["compare", str(ws), "--check"],
    lambda ws, other: ["analyze", str(ws), "--evals", str(EVALS), "--check"],
], ids=["diff", "compare", "analyze"])
def test_a_workspace_being_graded_is_not_read(tmp_path: Path, monkeypatch, capsys, command):
    ws, other = tmp_path / "ws", tmp_path / "other"
    shutil.copytree(EXAMPLE, ws)
    shutil.copytree(EXAMPLE, other)
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.0)
    with held_elsewhere(ws):
        assert main(command(ws, other)) == 2
    assert "another referee is writing reports into" in capsys.readouterr().err
    assert main(command(ws, other)) != 2, capsys.readouterr().err  # released with the with-block
