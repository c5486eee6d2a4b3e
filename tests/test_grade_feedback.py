"""The deterministic critique of an eval's assertions."""

from __future__ import annotations

from dataclasses import dataclass

from engine.feedback import RunFacts, eval_feedback, tool_filters
from engine.verdict import Precision


@dataclass(frozen=True)
class A:
    text: str
    check_source: str
    precision: Precision = Precision.EXACT_MATCH


def run(path, config, tools, outcomes, vacuous=None):
    return RunFacts(path, config, tuple(tools), tuple(outcomes),
                    tuple(vacuous or [False] * len(outcomes)))


def reasons(feedback):
    return [(s["assertion"], s["reason"].split(" ")[0]) for s in feedback["suggestions"]]


def test_tool_filters_follow_lets_and_ignore_strings():
    lets = {"saved": 'last(calls to glob "*saveExpenseDoc" with status success)',
            "amount": 'first(calls to "getInvoiceInfo").return.body.amount'}
    found = tool_filters('saved.args.fdApplyMoney == amount and response contains "saved"', lets)
    assert sorted((f.kind, f.pattern) for f in found) == [("exact", "getInvoiceInfo"), ("glob", "*saveExpenseDoc")]
    assert [str(f) for f in tool_filters(r"count(calls to /^b\/x$/i) == 1", {})] == ["/^b/x$/i"]


def test_existence_vacuous_and_never_called():
    assertions = [A("exists", 'exists file "s.csv"', Precision.EXISTENCE),
                  A("no placeholder", 'not response contains "{fdId}"'),
                  A("deletes", 'no calls to "deleteDoc"'),
                  A("saves", 'count(calls to glob "*saveDoc") == 1')]
    runs = [run("e/with/run-1", "with", ["x_saveDoc"], ["pass", "pass", "pass", "pass"]),
            run("e/without/run-1", "without", [], ["pass", "pass", "pass", "fail"], [False, True, True, False])]
    feedback = eval_feedback(assertions, runs)
    assert reasons(feedback) == [("exists", "checks"), ("no placeholder", "passed"), ("deletes", "passed"),
                                 ("deletes", "selects")]
    assert "e/without/run-1" in feedback["suggestions"][1]["reason"]
    assert "tools called: x_saveDoc" in feedback["suggestions"][3]["reason"]
    assert feedback["overall"] == "4 suggestions on 3 of 4 assertions, from 2 runs of this eval."


def test_assertion_passing_everywhere_does_not_discriminate():
    assertions = [A("once", 'count(calls to "a") == 1')]
    both = [run("r1", "with", ["a"], ["pass"]), run("r2", "without", ["a"], ["pass"])]
    assert reasons(eval_feedback(assertions, both)) == [("once", "passed")]
    single_config = [run("r1", "with", ["a"], ["pass"]), run("r2", "with", ["a"], ["pass"])]
    assert eval_feedback(assertions, single_config)["suggestions"] == []
    mixed = [run("r1", "with", ["a"], ["pass"]), run("r2", "without", ["a"], ["fail"])]
    feedback = eval_feedback(assertions, mixed)
    assert feedback == {"suggestions": [], "overall": "No deterministic critique of the 1 assertion over 2 runs."}
