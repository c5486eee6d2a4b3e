"""``aggregate`` adds critique.json's findings to its notes only while they are
about the rules that graded the runs: findings of other rules name weaknesses of
assertions the runs were not graded by."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from referee.engine.cli import main

REPO = Path(__file__).resolve().parents[1]
BOOKING = REPO / "examples" / "booking-skill"
WORKSPACE = REPO / "examples" / "booking-skill-workspace"  # graded by booking.rules


def _notes(workspace: Path) -> list[str]:
    assert main(["aggregate", str(workspace)]) in (0, 1, 3)
    return json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))["notes"]


def test_findings_of_other_rules_are_left_out_of_the_notes(tmp_path: Path, capsys):
    copy = tmp_path / "ws"
    shutil.copytree(WORKSPACE, copy)
    main(["critique", str(copy), "--rules", str(BOOKING / "weak.rules")])
    notes = _notes(copy)
    assert not [n for n in notes if "mutation testing found weak assertions" in n]
    assert any(n.startswith("critique.json was made with other rules (weak.rules@") and "booking.rules@" in n
               for n in notes)


def test_findings_of_the_rules_that_graded_the_runs_are_kept(tmp_path: Path, capsys):
    copy = tmp_path / "ws"
    shutil.copytree(WORKSPACE, copy)
    weak = str(BOOKING / "weak.rules")
    main(["grade", str(copy), "--rules", weak, "--force"])
    main(["critique", str(copy), "--rules", weak])
    assert json.loads((copy / "critique.json").read_text(encoding="utf-8"))["rules"][0].startswith("weak.rules@")
    notes = _notes(copy)
    assert any("mutation testing found weak assertions" in n and "Every cancellation is refunded" in n
               for n in notes)


def test_a_critique_json_that_names_no_rules_is_left_out(tmp_path: Path, capsys):
    copy = tmp_path / "ws"
    shutil.copytree(WORKSPACE, copy)
    main(["critique", str(copy), "--rules", str(BOOKING / "booking.rules")])
    path = copy / "critique.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["rules"]
    path.write_text(json.dumps(document), encoding="utf-8")
    notes = _notes(copy)
    assert any(n.startswith("critique.json was made with other rules (not named)") for n in notes)
