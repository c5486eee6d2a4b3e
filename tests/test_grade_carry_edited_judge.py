"""Who judged a verdict is part of what a later grade carries over: a grading.json
whose ``judged_by`` (on a carried item) or ``grader.llm`` (on an item judged by that
grade) was edited after referee wrote it does not hand the edited name on as the
grader's; the verdict is dropped, as an edited outcome is."""

from __future__ import annotations

import json
from pathlib import Path

from test_grade_carry_who_judged import _judged, _report

from referee.engine.cli import main


def _edit(ws: Path, change) -> None:
    path = ws / "session" / "grading.json"
    report = json.loads(path.read_text(encoding="utf-8"))
    change(report)
    path.write_text(json.dumps(report, indent=2), encoding="utf-8")


def _renamed_judge(report: dict) -> None:
    report["expectations"][0]["judged_by"]["model"] = "a-model-that-never-judged-it"


def _renamed_llm(report: dict) -> None:
    report["grader"]["llm"]["model"] = "a-model-that-never-judged-it"


def test_an_edited_judged_by_is_not_carried_over(tmp_path, monkeypatch, capsys):
    ws, rules, _ = _judged(tmp_path, monkeypatch)
    main(["grade", str(ws), "--rules", str(rules)])
    assert _report(ws)["expectations"][0]["method"] == "grader (carried over)"
    _edit(ws, _renamed_judge)
    main(["grade", str(ws), "--rules", str(rules)])
    (item,) = _report(ws)["expectations"]
    assert item["method"] != "grader (carried over)"
    assert item["outcome"] == "not_graded"
    assert "judged_by" not in item


def test_an_edited_grader_model_is_not_carried_over(tmp_path, monkeypatch, capsys):
    ws, rules, _ = _judged(tmp_path, monkeypatch)
    _edit(ws, _renamed_llm)
    main(["grade", str(ws), "--rules", str(rules)])
    (item,) = _report(ws)["expectations"]
    assert item["outcome"] == "not_graded"
    assert "judged_by" not in item


def test_an_unedited_verdict_is_still_carried_over_twice(tmp_path, monkeypatch, capsys):
    ws, rules, _ = _judged(tmp_path, monkeypatch)
    main(["grade", str(ws), "--rules", str(rules)])
    main(["grade", str(ws), "--rules", str(rules)])
    (item,) = _report(ws)["expectations"]
    assert item["method"] == "grader (carried over)"
    assert item["judged_by"]["model"] == "m"
