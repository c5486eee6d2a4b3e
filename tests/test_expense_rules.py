"""rules/expense-draft.rules on the shared expense example reproduces the table of
../shared/examples/README.md, cell by cell (semantic rows stay not graded)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import evaluate_workspace

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.workspace import discover

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"
EXAMPLES = SHARED / "examples"

P, F, S = "pass", "fail", "not_graded"
# Rows: expectations in evals.json order; columns: runs in the README's order.
TABLE = {
    "eval-1-expense-draft": {
        "runs": ["with_skill/run-1", "with_skill/run-2", "without_skill/run-1", "without_skill/run-2"],
        "rows": [
            [P, P, F, F],  # saveExpenseDoc is called exactly once
            [P, P, F, F],  # saveExpenseDoc is called with docStatus "10"
            [P, P, F, F],  # fdApplyMoney equals the invoice amount (text compare)
            [P, P, F, F],  # fdMonthOfOccurrence is 120260200
            [P, P, F, P],  # no literal {fdId} (without/run-2 has no link, but its response was read)
            [P, P, P, F],  # response names the expense subject
            [P, P, P, P],  # response is not empty (existence)
            [S, S, S, S],  # clear and friendly: semantic
        ],
    },
    "eval-2-sales-summary": {
        "runs": ["with_skill/run-1", "without_skill/run-1"],
        "rows": [
            [P, P],  # summary.csv exists (existence)
            [P, F],  # header is region,total
            [P, F],  # North has total 1250
            [P, F],  # Bash before the answer
            [S, S],  # explains the totals: semantic
        ],
    },
}


@pytest.fixture(scope="module")
def graded(shared_examples: Path) -> dict:
    return evaluate_workspace(REPO / "rules" / "expense-draft.rules", "rules/expense-draft.rules",
                              EXAMPLES / "expense-skill" / "evals" / "evals.json",
                              EXAMPLES / "expense-skill-workspace")


def _cells():
    for eval_dir, table in TABLE.items():
        for column, run in enumerate(table["runs"]):
            for row, expected in enumerate(table["rows"]):
                rel = f"iteration-1/{eval_dir}/{run}"
                yield pytest.param(rel, row, expected[column], id=f"{eval_dir}:{run}:{row + 1}")
        # every expectation of evals.json has a row
        assert all(len(r) == len(table["runs"]) for r in table["rows"])


@pytest.mark.parametrize("rel, row, expected", list(_cells()))
def test_cell(graded, rel: str, row: int, expected: str):
    ev, verdicts = graded[rel]
    verdict = verdicts[row]
    assert verdict.outcome.value == expected, f"{ev.assertions[row].text}: {verdict.message}"


def test_every_run_and_expectation_is_covered(graded):
    assert len(graded) == 6
    for rel, (ev, verdicts) in graded.items():
        eval_dir = rel.split("/")[1]
        assert len(verdicts) == len(TABLE[eval_dir]["rows"])
        assert [a.index for a in ev.assertions] == list(range(1, len(verdicts) + 1))


def test_the_traps_are_explained(graded):
    without1 = graded["iteration-1/eval-1-expense-draft/without_skill/run-1"][1]
    without2 = graded["iteration-1/eval-1-expense-draft/without_skill/run-2"][1]
    assert "is 2" in without1[0].message
    assert 'args.docStatus is "20"' in without1[1].message and 'expected "10"' in without1[1].message
    assert '"168"' in without1[2].message and '"168.00"' in without1[2].message
    assert "120260100" in without1[3].message
    assert "response.md:1" in without1[4].message
    assert "claims saveExpenseDoc was called" in without2[0].message
    assert "claims saveExpenseDoc was called" in without2[1].message
    # without/run-2's response has no link at all, yet it was read: the check had something to
    # look at, so its pass is not called vacuous (that it holds no link is a judgement of meaning)
    assert not without2[4].vacuous and not without1[4].vacuous
    sales = graded["iteration-1/eval-2-sales-summary/without_skill/run-1"][1]
    assert "claims Bash was called" in sales[3].message
    assert '"Region,Total"' in sales[1].message


def test_static_properties(graded):
    ev, _ = graded["iteration-1/eval-1-expense-draft/with_skill/run-1"]
    precisions = [a.precision.value for a in ev.assertions]
    assert precisions == ["exact_match"] * 6 + ["existence", "semantic"]
    assert [a.gated for a in ev.assertions] == [True] * 6 + [False, True]
    assert ev.assertions[5].evidence_source == "tool_calls+response"
    assert ev.assertions[7].semantic_rubric == ev.assertions[7].text
    assert ev.assertions[0].text == "saveExpenseDoc is called exactly once"
    assert ev.assertions[0].rules_location.startswith("rules/expense-draft.rules:")


def test_numeric_compare_is_the_authors_choice(graded, tmp_path):
    """The same data passes when the author compares numbers instead of text."""
    text = ('eval 1\nlet amount = first(calls to glob "*getInvoiceInfo").return.body.amount\n'
            'expect 3: number(last(calls to glob "*saveExpenseDoc" with status success)'
            '.args.fdApplyMoney) == number(amount)\n')
    program = compile_rules([dsl.parse_rules(text, "numeric.rules")])
    run = next(r for r in discover(EXAMPLES / "expense-skill-workspace").runs
               if r.id.rel.endswith("eval-1-expense-draft/without_skill/run-1"))
    assert evaluate(program.evals[0], run)[0].outcome.value == "pass"


def test_the_fdid_check_passed_by_the_run_that_made_no_call_is_flagged(shared_examples: Path):
    """The README's "a critique of the evals should flag this assertion": without/run-2
    made no tool call while the eval's other runs did, and passes the placeholder check
    only because it produced no link. eval_feedback says so, and of nothing else."""
    import referee

    rules = (REPO / "rules" / "expense-draft.rules").read_text(encoding="utf-8")
    evals = shared_examples / "expense-skill" / "evals" / "evals.json"
    results = referee.grade(rules, shared_examples / "expense-skill-workspace", evals=evals)
    feedback = {r.path.split("/")[1]: r.grading["eval_feedback"]["suggestions"] for r in results}
    idle = [(s["assertion"], s["reason"]) for s in feedback["eval-1-expense-draft"]
            if "that made no tool call" in s["reason"]]
    assert [text for text, _ in idle] == ["The detail link in the response contains no literal {fdId} placeholder"]
    assert "(iteration-1/eval-1-expense-draft/without_skill/run-2) while 3 other runs" in idle[0][1]
    assert not [s for s in feedback["eval-2-sales-summary"] if "that made no tool call" in s["reason"]]
