"""``aggregate`` takes ``validity.json`` and ``comparison/summary.json`` into its
release decision only while their decisions are the ones their own figures (and
the runs aggregated) give: a hand edit of ``can_tell``, ``cannot_tell``, a vote
or the sign test's result is refused, never believed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import build, grade, rules
from referee.engine.cli import main


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """Two evals; a null run passes eval 2 (its only check is negative); compare is underpowered."""
    root = tmp_path_factory.mktemp("edited-findings")
    rules_file = rules(root / "gen.rules", 2, negative=[2])
    ws = build(root / "ws", {"with_skill": [["good"] * 2] * 2, "without_skill": [["bad"] * 2] * 2})
    grade(ws, rules_file)
    assert main(["validate", str(ws), "--rules", str(rules_file), "--no-critique"]) == 1
    assert main(["compare", str(ws)]) == 1
    return ws


def _said(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _edit(path: Path, edit) -> bytes:
    kept = path.read_bytes()
    doc = json.loads(kept)
    edit(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return kept


def _aggregate_with(capsys, workspace: Path, name: str, edit) -> tuple[int, str]:
    path = workspace / name
    kept = _edit(path, edit)
    try:
        return _said(capsys, "aggregate", workspace, "--check")
    finally:
        path.write_bytes(kept)


def test_the_files_as_written_decide(workspace, capsys):
    code, out = _said(capsys, "aggregate", workspace, "--check")
    assert code == 1, out
    assert "eval_validity: 1 of 2 evals cannot tell" in out and "underpowered" in out


def test_can_tell_turned_true_is_refused(workspace, capsys):
    def told(doc: dict) -> None:
        doc["evals"][1]["can_tell"] = True
        doc["cannot_tell"] = []

    code, out = _aggregate_with(capsys, workspace, "validity.json", told)
    assert code == 2, out
    assert "validity.json: eval 2 has can_tell true, but its null run's gate is PASS" in out


def test_a_null_run_turned_failing_is_refused(workspace, capsys):
    def failed(doc: dict) -> None:
        row = doc["evals"][1]
        row["can_tell"], row["null_run"]["gate"] = True, "FAIL"
        doc["cannot_tell"] = []

    code, out = _aggregate_with(capsys, workspace, "validity.json", failed)
    assert code == 2 and "validity.json: eval 2's null run has gate FAIL, but 1 of 1 gated passed" in out


def test_an_eval_taken_out_of_validity_is_refused(workspace, capsys):
    def dropped(doc: dict) -> None:
        doc["evals"] = doc["evals"][:1]
        doc["cannot_tell"] = []

    code, out = _aggregate_with(capsys, workspace, "validity.json", dropped)
    assert code == 2 and "validity.json: no entry for eval 2" in out


def test_a_sign_test_result_turned_is_refused(workspace, capsys):
    def better(doc: dict) -> None:
        doc["sign_test"]["result"] = "primary better"

    code, out = _aggregate_with(capsys, workspace, "comparison/summary.json", better)
    assert code == 2, out
    assert ("comparison/summary.json: sign_test.result is 'primary better', its votes give "
            "'underpowered'") in out


def test_a_vote_that_disagrees_with_the_wins_is_refused(workspace, capsys):
    def voted(doc: dict) -> None:
        doc["evals"][0]["vote"] = "baseline"

    code, out = _aggregate_with(capsys, workspace, "comparison/summary.json", voted)
    assert code == 2, out
    assert "comparison/summary.json: eval 1 has vote 'baseline', its wins and losses give 'primary'" in out


def test_pairs_that_disagree_with_the_runs_are_refused(workspace, capsys):
    def more(doc: dict) -> None:
        row = doc["evals"][0]
        row["pairs"] += 1
        row["wins"] += 1

    code, out = _aggregate_with(capsys, workspace, "comparison/summary.json", more)
    assert code == 2 and "comparison/summary.json: eval 1 has 5 pairs, the runs aggregated give 4" in out


@pytest.mark.parametrize("field, value, said", [
    ("mutation", {"killed": None, "mutants": 66}, "eval 1's mutation has killed None of mutants 66"),
    ("mutation", {"killed": 9, "mutants": 3}, "eval 1's mutation has killed 9 of mutants 3"),
    ("mutation", [], "eval 1's mutation is not an object"),
    ("judge_flip_rate", {"asked": 1}, "judge_flip_rate has flipped None of asked 1"),
])
def test_counts_the_reason_adds_up_that_are_no_counts_are_refused(workspace, capsys, field, value, said):
    # Input: a mutation's "killed" made null: aggregate stopped with an internal error
    # (TypeError) adding the mutation scores up for its eval_validity reason.
    def counted(doc: dict) -> None:
        (doc["evals"][0] if field == "mutation" else doc)[field] = value
    code, out = _aggregate_with(capsys, workspace, "validity.json", counted)
    assert code == 2 and said in out and "internal error" not in out
