"""Claims in agent notes and the response, checked against the raw tool log."""

from __future__ import annotations

from pathlib import Path

from referee.engine.facts.claims import find_claims
from referee.engine.run.workspace import discover, load_run

EXPENSE = "expense-skill-workspace/iteration-1"


def claims_of(shared_examples: Path, rel: str):
    run = load_run(shared_examples / EXPENSE / rel, shared_examples / EXPENSE)
    return [(c.claim, c.type, c.verified) for c in find_claims(run)], find_claims(run)


def test_tool_claim_with_no_call_is_unverified(shared_examples):
    found, full = claims_of(shared_examples, "eval-1-expense-draft/without_skill/run-2")
    assert found == [
        ("saveExpenseDoc was called", "process", False),
        ("docStatus is 10", "factual", False),
        ("docStatus is 10", "factual", False),
    ]
    assert full[0].evidence.startswith('outputs/transcript.md:6 (agent_notes step 1) says "已调用 saveExpenseDoc"')
    assert "no [tool_calls] record of saveExpenseDoc" in full[0].evidence
    assert full[2].evidence.startswith("outputs/response.md:1 (response)")


def test_verified_claims_quote_both_places(shared_examples):
    found, full = claims_of(shared_examples, "eval-1-expense-draft/with_skill/run-1")
    assert found == [
        ("saveExpenseDoc was called successfully", "process", True),
        ("fdId is a1b2c3d4", "factual", True),
        ("status is 10", "factual", True),
        ("the response states 168.00", "factual", True),
    ]
    assert "step 3 (outputs/transcript.md:22) has args.docStatus (line 24)" in full[2].evidence
    assert "return.body.amount (line 9)" in full[3].evidence


def test_status_claim_contradicted_by_the_log(shared_examples):
    found, full = claims_of(shared_examples, "eval-1-expense-draft/without_skill/run-1")
    assert ("status is 草稿", "factual", False) in found
    assert 'step 3 (outputs/transcript.md:20) has args.docStatus (line 22) = "20"' in full[0].evidence
    # "168" in the response equals the invoice's "168.00" as a number
    assert ("the response states 168", "factual", True) in found


def test_bash_claim_without_bash_call(shared_examples):
    found, full = claims_of(shared_examples, "eval-2-sales-summary/without_skill/run-1")
    assert found == [("Bash was called", "process", False)]
    assert '"Ran the aggregation script with Bash"' in full[0].evidence


def test_numbers_found_inside_tool_output_text(shared_examples):
    found, _ = claims_of(shared_examples, "eval-2-sales-summary/with_skill/run-1")
    assert found == [("the response states 1250", "factual", True),
                     ("the response states 380", "factual", True),
                     ("the response states 120", "factual", True)]


def write_run(tmp_path: Path, transcript: str, response: str) -> Path:
    run = tmp_path / "eval-1" / "cfg" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(transcript, encoding="utf-8")
    (run / "outputs" / "response.md").write_text(response, encoding="utf-8")
    return run


def test_dates_urls_list_markers_and_prompt_are_not_claims(tmp_path):
    transcript = "## Eval Prompt\n\nCall saveExpenseDoc and run it with Bash.\n"
    response = ("1. Filed on 2026-01-28, 2026 年 2 月, at 10:30.\n"
                "See https://x.example/view?fdId=a1b2&docStatus=20 or v2.\n")
    run = load_run(write_run(tmp_path, transcript, response), tmp_path)
    assert find_claims(run) == []


def test_a_call_after_the_note_does_not_verify_it(tmp_path):
    transcript = ("## [agent_notes] Step 1: plan\nI called fetchOrder already.\n\n"
                  "## [tool_calls] Step 2: fetchOrder\nTool: fetchOrder\nArgs: {}\nReturn: {}\nStatus: success\n")
    run = load_run(write_run(tmp_path, transcript, ""), tmp_path)
    [claim] = find_claims(run)
    assert not claim.verified
    assert "first call at step 2" in claim.evidence


def test_claims_are_deterministic(shared_examples):
    workspace = shared_examples / EXPENSE
    first = [find_claims(run) for run in discover(workspace).runs]
    second = [find_claims(run) for run in discover(workspace).runs]
    assert first == second
