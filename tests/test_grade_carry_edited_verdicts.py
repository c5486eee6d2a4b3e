"""A verdict carried over (grade without --llm) is one the grader gave: an item of
grading.json whose outcome, evidence or places were edited after referee wrote it is
not carried, and is not graded instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sharded import REPO, RULE_ARGS, fresh

from referee.engine.cli import main

RUN = Path("iteration-1") / "eval-2-fare-export" / "without_skill" / "run-1"
CASSETTE = REPO / "examples" / "booking-skill" / "judge.cassette.jsonl"


def _grading(workspace: Path) -> Path:
    return workspace / RUN / "grading.json"


def _semantic(workspace: Path) -> dict:
    report = json.loads(_grading(workspace).read_text(encoding="utf-8"))
    (item,) = [item for item in report["expectations"] if item["precision"] == "semantic"]
    return item


def _judged(tmp_path: Path) -> Path:
    workspace = fresh(tmp_path)
    main(["grade", str(workspace), *RULE_ARGS, "--llm", f"replay:{CASSETTE}"])
    item = _semantic(workspace)
    assert (item["method"], item["outcome"]) == ("grader", "fail")
    return workspace


def _edit(workspace: Path, change) -> None:
    report = json.loads(_grading(workspace).read_text(encoding="utf-8"))
    for item in report["expectations"]:
        if item["precision"] == "semantic":
            change(item)
    _grading(workspace).write_text(json.dumps(report, indent=2), encoding="utf-8")


def _to_pass(item: dict) -> None:
    item["outcome"], item["passed"] = "pass", True


def _new_evidence(item: dict) -> None:
    item["evidence"] = "grader: the response names every flight left out."


def _new_place(item: dict) -> None:
    item["evidence_location"] = [{"source": "response", "file": "outputs/response.md", "line": 1, "step": None}]


def test_an_unedited_verdict_is_still_carried(tmp_path, capsys):
    workspace = _judged(tmp_path)
    before = _semantic(workspace)
    main(["grade", str(workspace), *RULE_ARGS])
    after = _semantic(workspace)
    assert after["method"] == "grader (carried over)"
    assert ({k: v for k, v in after.items() if k not in ("method", "judged_by")}
            == {k: v for k, v in before.items() if k != "method"})
    assert after["judged_by"] is not None  # who gave the verdict


@pytest.mark.parametrize("change", [_to_pass, _new_evidence, _new_place])
def test_an_edited_verdict_is_not_carried(tmp_path, capsys, change):
    # Input: a run graded with --llm (the grader failed its semantic assertion), then
    # the item edited in grading.json (grader_input left alone), then a grade without --llm.
    workspace = _judged(tmp_path)
    _edit(workspace, change)
    main(["grade", str(workspace), *RULE_ARGS])
    item = _semantic(workspace)
    assert (item["method"], item["outcome"], item["passed"]) == ("not_graded", "not_graded", False)
    assert "an earlier LLM grader verdict was not kept" in item["evidence"]
    assert item["grader_input"] is None


def _method_a_list(item: dict) -> None:
    item["method"] = ["grader"]


def _method_an_object(item: dict) -> None:
    item["method"] = {"grader": True}


def _outcome_a_list(item: dict) -> None:
    item["outcome"] = ["fail"]


def _judged_by_a_list(item: dict) -> None:
    item["method"], item["judged_by"] = "grader (carried over)", [{"model": "m"}]


def _grader_input_a_list(item: dict) -> None:
    item["grader_input"] = [["quote"]]


@pytest.mark.parametrize("change", [_method_a_list, _method_an_object, _outcome_a_list, _judged_by_a_list,
                                    _grader_input_a_list])
def test_an_item_holding_another_json_type_is_not_carried_and_stops_nothing(tmp_path, capsys, change):
    # Input: the judged item's member replaced by a value of another JSON type. Before,
    # a list or an object as its "method" ended the grade in an internal error
    # (unhashable type: 'list').
    workspace = _judged(tmp_path)
    _edit(workspace, change)
    capsys.readouterr()
    assert main(["grade", str(workspace), *RULE_ARGS]) in (0, 1)
    assert "internal error" not in capsys.readouterr().err
    item = _semantic(workspace)
    assert (item["method"], item["outcome"], item["passed"]) == ("not_graded", "not_graded", False)
