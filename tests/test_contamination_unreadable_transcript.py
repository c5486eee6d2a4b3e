"""A run whose transcript cannot be read (bytes that are not UTF-8) is not shown clean of
contamination, by ``aggregate`` nor by ``analyze``: its calls were not read, and one of
them may be the read of the skill."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
RUN = "iteration-1/eval-1-book-flight/without_skill/run-1"
READ = (b'\n## [tool_calls] Step 3: Read\nTool: Read\nArgs: {"file_path": "/home/u/skills/booking-skill/SKILL.md"}\n'
        b"Return: {}\nStatus: success\n")


def _workspace(tmp_path: Path, spoil: bytes) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    transcript = ws / RUN / "outputs" / "transcript.md"
    # a third call after the run's two, that reads the skill: a byte that is not UTF-8 in
    # its folder's name hides what it read
    transcript.write_bytes(transcript.read_bytes() + READ.replace(b"booking-skill", b"booking" + spoil + b"-skill"))
    main(["grade", str(ws), "--rules", str(RULES), "--evals", str(EVALS)])
    return ws


def _contamination(ws: Path, capsys) -> tuple[dict, dict]:
    main(["aggregate", str(ws), "--evals", str(EVALS)])
    reason = next(r for r in json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))["release"]["reasons"]
                  if r["rule"] == "contaminated")
    capsys.readouterr()
    assert main(["analyze", str(ws), "--evals", str(EVALS), "--check"]) == 0
    return reason, json.loads(capsys.readouterr().out)["referee"]


def test_a_run_whose_transcript_cannot_be_read_is_not_shown_clean(tmp_path: Path, capsys):
    reason, analysed = _contamination(_workspace(tmp_path, b"\xff"), capsys)
    assert reason["status"] != "ok" and RUN in reason["message"] and "could not be read" in reason["message"]
    assert [row["path"] for row in analysed["unchecked_runs"]] == [RUN]
    assert "not UTF-8" in analysed["unchecked_runs"][0]["reason"]


def test_a_read_transcript_is_checked_as_before(tmp_path: Path, capsys):
    reason, analysed = _contamination(_workspace(tmp_path, b""), capsys)
    assert reason["status"] != "ok" and RUN in reason["message"]  # the read is found
    assert [row["path"] for row in analysed["contaminated_runs"]] == [RUN] and analysed["unchecked_runs"] == []
