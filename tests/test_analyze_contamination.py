"""``analyze`` finds the same contamination as ``aggregate``: a subagent's read of the
skill is a read of the run."""

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


def test_a_subagents_read_of_the_skill_is_contamination_in_analyze(tmp_path: Path, capsys):
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    run = ws / RUN
    (run / "subagents").mkdir()
    (run / "subagents" / "step-1.md").write_text(
        "## [tool_calls] Step 1: Read\nTool: Read\nArgs: {\"file_path\": \"/home/u/skills/booking-skill/SKILL.md\"}\n"
        "Return: {}\nStatus: success\n", encoding="utf-8")
    source_map = {"version": 1, "format": "claude-code", "sources": ["s.jsonl"], "problems": [], "sha256": {},
                  "lines": {"outputs/transcript.md": [], "subagents/step-1.md": []}}
    (run / "source_map.json").write_text(json.dumps(source_map), encoding="utf-8")
    main(["grade", str(ws), "--rules", str(RULES), "--evals", str(EVALS)])
    capsys.readouterr()
    assert main(["analyze", str(ws), "--evals", str(EVALS), "--check"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (found,) = doc["referee"]["contaminated_runs"]
    assert found["path"] == RUN
    assert "Read (subagent step-1) (subagents/step-1.md:3) reads the skill under test" in found["evidence"][0]
