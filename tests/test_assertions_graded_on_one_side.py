"""A baseline graded without the LLM grader against a primary judged by one: their
gates cover different assertions (the baseline's semantic ones are not graded), and
the benchmark's notes say so, naming the eval and the assertions."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
SKILL = REPO / "examples" / "booking-skill"
RULES, EVALS, CASSETTE = SKILL / "booking.rules", SKILL / "evals" / "evals.json", SKILL / "judge.cassette.jsonl"


def _graded(tmp_path: Path, capsys, baseline_llm: bool) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    for stale in ("benchmark.json", "benchmark.md"):
        (ws / stale).unlink()
    for report in (*ws.rglob("grading.json"), *ws.rglob("ground_truth.json")):
        report.unlink()
    for eval_dir in sorted(p for p in (ws / "iteration-1").iterdir() if p.is_dir()):
        judged = ["--llm", f"replay:{CASSETTE}"]
        main(["grade", str(eval_dir / "with_skill"), "--rules", str(RULES), "--evals", str(EVALS), *judged])
        main(["grade", str(eval_dir / "without_skill"), "--rules", str(RULES), "--evals", str(EVALS),
              *(judged if baseline_llm else [])])
    capsys.readouterr()
    return ws


def _notes(tmp_path: Path, capsys, baseline_llm: bool) -> list[str]:
    ws = _graded(tmp_path, capsys, baseline_llm)
    assert main(["aggregate", str(ws), "--primary", "with_skill"]) == 3
    capsys.readouterr()
    return json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))["notes"]


def test_notes_name_the_assertions_graded_in_the_primary_only(tmp_path, capsys):
    # Input: with_skill graded with --llm replay:, without_skill without --llm. The
    # semantic assertions 1#7 and 2#4 counted in with_skill's gates and in none of
    # without_skill's, and nothing said so; now a note per eval names them.
    found = [n for n in _notes(tmp_path, capsys, baseline_llm=False) if "graded in" in n]
    assert len(found) == 2, found
    assert found[0].startswith("eval 1: ") and "1#7" in found[0] and "2#4" not in found[0]
    assert found[1].startswith("eval 2: ") and "2#4" in found[1]
    assert "graded in with_skill" in found[0] and "not graded in any run of without_skill" in found[0]


def test_no_such_note_when_both_sides_are_judged(tmp_path, capsys):
    assert not [n for n in _notes(tmp_path, capsys, baseline_llm=True) if "graded in" in n]


def test_compare_scores_only_the_assertions_both_sides_graded(tmp_path, capsys):
    # Input: the same workspace. Pair 5 (eval 2) scored with_skill's rubric with
    # usability 5 from 2#4, which the model judged in with_skill alone: the rubrics
    # weighed different assertions. Now 2#4 is left out of both, and said.
    ws = _graded(tmp_path, capsys, baseline_llm=False)
    (tmp_path / "cmp").mkdir()
    main(["compare", str(ws), "--out", str(tmp_path / "cmp")])
    doc = json.loads((tmp_path / "cmp" / "comparison-5.json").read_text(encoding="utf-8"))
    with_skill = "A" if doc["referee"]["assignment"]["A"] == "with_skill" else "B"
    assert doc["referee"]["graded_on_one_side"][with_skill] == ["2#4"]
    assert "usability" not in doc["rubric"][with_skill]["structure"]
    assert f"Left out of the rules' score: 2#4 graded in {with_skill} alone." in doc["reasoning"]
    rows = json.loads((tmp_path / "cmp" / "summary.json").read_text(encoding="utf-8"))["evals"]
    assert [row["graded_on_one_side"] for row in rows] == [{"with_skill": ["1#7"]}, {"with_skill": ["2#4"]}]
    assert "graded in with_skill alone, left out of the rules' score: 2#4" in capsys.readouterr().out


def test_compare_leaves_nothing_out_when_both_sides_are_judged(tmp_path, capsys):
    ws = _graded(tmp_path, capsys, baseline_llm=True)
    (tmp_path / "cmp").mkdir()
    main(["compare", str(ws), "--out", str(tmp_path / "cmp")])
    doc = json.loads((tmp_path / "cmp" / "comparison-5.json").read_text(encoding="utf-8"))
    assert doc["referee"]["graded_on_one_side"] == {"A": [], "B": []}
    assert "Left out" not in doc["reasoning"]
    rows = json.loads((tmp_path / "cmp" / "summary.json").read_text(encoding="utf-8"))["evals"]
    assert not [row for row in rows if "graded_on_one_side" in row]
