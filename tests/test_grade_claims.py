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
    transcript = ("## [tool_calls] Step 1: other\nTool: other\nArgs: {}\nReturn: {}\nStatus: success\n\n"
                  "## [agent_notes] Step 1: plan\nI called fetchOrder already.\n\n"
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


# ---- claims are the agent's own words, said, not denied, each at its own line ---------

FIXTURE = Path(__file__).parent / "fixtures" / "claims-workspace"
FIXTURE_RUNS = FIXTURE / "iteration-1" / "eval-1-claims" / "with_skill"


def fixture_claims(number: int):
    run = load_run(FIXTURE_RUNS / f"run-{number}", FIXTURE)
    return find_claims(run)


def test_user_turns_and_denials_claim_no_call():
    claims = fixture_claims(1)
    assert [(c.claim, c.verified) for c in claims] == [("travel_get_reservation was called", True)]
    assert claims[0].evidence.startswith("outputs/transcript.md:17 (agent_notes step 2)")


def test_a_failing_check_lists_no_claim_from_user_turns_or_denials():
    from referee import dsl
    from referee.engine.compile import compile_rules
    from referee.engine.evaluate import evaluate

    rules = FIXTURE.with_name("claims-workspace.rules")
    program = compile_rules([dsl.parse_rules(rules.read_text(encoding="utf-8"), rules.name)])
    run = load_run(FIXTURE_RUNS / "run-1", FIXTURE)
    verdicts = evaluate(program.for_run(run.id, run.metadata), run)
    assert [v.outcome.value for v in verdicts] == ["fail", "fail"]
    assert all(" claims " not in v.message and not v.details for v in verdicts)


def test_a_note_claiming_a_call_is_listed_at_its_own_line(tmp_path):
    from referee.dsl import ast
    from referee.engine.checks.trust import claimed_tools, notes_claiming

    transcript = ("## [agent_notes] Step 1: plan\nFirst a plan.\n\n"
                  "## [agent_notes] Step 2: done\nNothing yet.\nThen I called travel_bookReservation.\n")
    run = claimed_tools(load_run(write_run(tmp_path, transcript, ""), tmp_path))
    [claim] = notes_claiming(run, ast.NamePattern("glob", "*bookReservation"))
    assert claim.message == ("agent_notes step 2 (transcript.md:6) claims bookReservation was called; "
                             "no [tool_calls] record")
    assert notes_claiming(run, ast.NamePattern("glob", "*cancel_bookReservation")) == ()


def test_code_blocks_hold_no_claims_and_a_repeated_claim_cites_each_line():
    claims = fixture_claims(2)
    assert [c.claim for c in claims] == ["docStatus is 10", "docStatus is 10"]
    assert [c.evidence.split(" ", 1)[0] for c in claims] == ["outputs/transcript.md:12",
                                                           "outputs/transcript.md:19"]
    assert all(c.verified for c in claims)


def test_a_number_is_verified_only_by_the_same_quantity():
    claims = {c.claim: c for c in fixture_claims(3)}
    assert not claims["the response states 17"].verified  # "found 17 files" counts files, not tests
    assert 'as a count of "tests"' in claims["the response states 17"].evidence
    assert claims["the response states 12"].verified  # "12 passed"
    # "status is done" is read by two patterns at one place: one claim
    assert [(c.claim, c.verified) for c in fixture_claims(4)] == [
        ("sumOrders was called", True), ("status is done", True), ("the response states 1250", True)]


def test_denied_calls_and_fields_are_not_claims(tmp_path):
    transcript = ("## [agent_notes] Step 1: plan\nI did not call fetchOrder. I never ran cleanupJob.\n"
                  "未调用 saveExpenseDoc。docStatus is not 10; I did not set fdMonth=3.\n")
    run = load_run(write_run(tmp_path, transcript, "Nothing was saved.\n"), tmp_path)
    assert find_claims(run) == []


def test_dates_written_with_month_names_are_not_claims(tmp_path):
    run = load_run(write_run(tmp_path, "", "Booked for 14 May 2026, or May 15.\n"), tmp_path)
    assert find_claims(run) == []


def test_the_notes_are_read_for_tool_claims_once_per_run(monkeypatch):
    from referee import compile, grade
    from referee.engine.facts import claims
    from referee.engine.run.memory import memory_run

    reads = []
    original = claims.tool_claims
    monkeypatch.setattr(claims, "tool_claims", lambda run: reads.append(run) or original(run))
    notes = "## [agent_notes] Step 1: done\nI called saveDoc and then sendMail.\n"
    program = compile('eval 1\nexpect: any calls to "saveDoc"\nexpect: any calls to "sendMail"\n'
                      'expect: count(calls to glob "*Doc") == 1\n')
    from referee.engine.evaluate import evaluate
    (ev,) = program.evals
    run = memory_run({"outputs/transcript.md": notes})
    verdicts = evaluate(ev, run)
    assert "claims saveDoc was called" in verdicts[0].message
    assert len(reads) == 1, "three selections, one reading of the notes"
