"""``report`` reads the workspace under the lock ``grade`` holds while it writes, as
``aggregate`` does: a report made while a grade is writing would show runs graded
by the old rules beside runs graded by the new ones."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO
from held_lock import held_elsewhere
from referee.engine.cli import main
from referee.engine.report import lock

EXAMPLE = REPO / "examples" / "booking-skill-workspace"



def test_report_waits_for_the_workspace_lock_and_reads_nothing_meanwhile(tmp_path: Path, monkeypatch, capsys):
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    out = tmp_path / "report.md"
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.0)
    with held_elsewhere(ws):
        assert main(["report", str(ws), "--format", "markdown", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "another referee is writing reports into" in err and "nothing was reported" in err
    assert not out.exists()
    assert main(["report", str(ws), "--format", "markdown", "-o", str(out)]) != 2  # released with the with-block
    assert out.exists()
