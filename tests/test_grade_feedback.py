"""The deterministic critique of an eval's assertions."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.facts.contents import Contents, merged
from referee.engine.facts.feedback import SHOWN_RUNS, EvalTally, RunFacts, eval_feedback
from referee.engine.verdict import Precision


def compiled(rules: str):
    return compile_rules([dsl.parse_rules(rules, "t.rules")]).evals[0].assertions


@dataclass(frozen=True)
class A:
    text: str
    check_source: str
    precision: Precision = Precision.EXACT_MATCH

    @property
    def tool_patterns(self):
        return compiled(f"eval 1\nexpect: {self.check_source}\n")[0].tool_patterns

    @property
    def tool_matchers(self):
        return compiled(f"eval 1\nexpect: {self.check_source}\n")[0].tool_matchers


def run(path, config, tools, outcomes, vacuous=None):
    return RunFacts(path, config, tuple(tools), tuple(outcomes),
                    tuple(vacuous or [False] * len(outcomes)))


def reasons(feedback):
    return [(s["assertion"], s["reason"].split(" ")[0]) for s in feedback["suggestions"]]


def test_tool_patterns_follow_lets_and_ignore_strings():
    (assertion,) = compiled(
        'eval 1\nlet saved = last(calls to glob "*saveExpenseDoc" with status success)\n'
        'let amount = first(calls to "getInvoiceInfo").return.body.amount\n'
        'expect: saved.args.fdApplyMoney == amount and response contains "calls to \\"x\\""\n')
    assert sorted((p.kind, p.text) for p in assertion.tool_patterns) == [
        ("exact", "getInvoiceInfo"), ("glob", "*saveExpenseDoc")]
    (regex,) = compiled('eval 1\nexpect: count(calls to /^b\\/x$/i) == 1\n')
    assert [(p.kind, p.text, p.flags) for p in regex.tool_patterns] == [("regex", "^b/x$", "i")]


def test_existence_vacuous_and_never_called():
    assertions = [A("exists", 'exists file "s.csv"', Precision.EXISTENCE),
                  A("no placeholder", 'not response contains "{fdId}"'),
                  A("deletes", 'no calls to "deleteDoc"'),
                  A("saves", 'count(calls to glob "*saveDoc") == 1')]
    runs = [run("e/with/run-1", "with", ["x_saveDoc"], ["pass", "pass", "pass", "pass"]),
            run("e/without/run-1", "without", [], ["pass", "pass", "pass", "fail"], [False, True, True, False])]
    feedback = eval_feedback(assertions, runs)
    # "deletes" wants deleteDoc not called and passed everywhere: no advice on its name.
    assert reasons(feedback) == [("exists", "checks"), ("no placeholder", "passed"), ("deletes", "passed")]
    assert "e/without/run-1" in feedback["suggestions"][1]["reason"]
    assert feedback["overall"] == "3 suggestions on 3 of 4 assertions, from 2 runs of this eval."


def test_assertion_passing_everywhere_does_not_discriminate():
    assertions = [A("once", 'count(calls to "a") == 1')]
    both = [run("r1", "with", ["a"], ["pass"]), run("r2", "without", ["a"], ["pass"])]
    assert reasons(eval_feedback(assertions, both)) == [("once", "passed")]
    single_config = [run("r1", "with", ["a"], ["pass"]), run("r2", "with", ["a"], ["pass"])]
    assert eval_feedback(assertions, single_config)["suggestions"] == []
    mixed = [run("r1", "with", ["a"], ["pass"]), run("r2", "without", ["a"], ["fail"])]
    feedback = eval_feedback(assertions, mixed)
    assert feedback == {"suggestions": [], "overall": "No deterministic critique of the 1 assertion over 2 runs."}


def test_a_check_through_a_let_about_a_tool_never_called_is_flagged(tmp_path):
    import json
    import shutil

    from conftest import REPO
    from referee.engine.cli import main

    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", workspace)
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nlet cancel = last(calls to glob "*cancelReservation")\n'
                     'expect "nothing is cancelled": cancel.args.ref == "x"\n', encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules)]) == 1  # the check fails
    report = json.loads(next(workspace.rglob("eval-1-*/with_skill/run-1/grading.json")).read_text("utf-8"))
    reasons = [s["reason"] for s in report["eval_feedback"]["suggestions"]]
    assert any(r.startswith("selects calls to *cancelReservation, which no run of this eval called")
               for r in reasons), reasons


# ---- the tally: what the critique keeps of an eval's runs, folded as they come ----

_OUTCOMES = st.sampled_from(["pass", "fail", "error", "not_graded"])
_NAMES = st.sampled_from(["a", "b", "c"])
_CONTENTS = st.one_of(st.none(), st.builds(Contents, st.frozensets(_NAMES), st.frozensets(_NAMES),
                                           st.frozensets(_NAMES)))
_RUN = st.builds(RunFacts, st.text("xyz/-", max_size=4), st.sampled_from(["with", "without"]),
                 st.lists(_NAMES, max_size=3).map(tuple), st.lists(_OUTCOMES, max_size=4).map(tuple),
                 st.lists(st.booleans(), max_size=4).map(tuple), _CONTENTS, st.booleans())


@settings(max_examples=80, deadline=None)
@given(runs=st.lists(_RUN, max_size=12), positions=st.integers(0, 4))
def test_the_tally_keeps_what_the_runs_in_a_list_would_give(runs, positions):
    tally = EvalTally(positions)
    for one in runs:
        tally.add(one)
    assert tally.runs == len(runs)
    assert tally.tools == {tool for one in runs for tool in one.tools}
    assert tally.tools_certain == all(one.tools_certain for one in runs)
    assert tally.configurations == {one.configuration for one in runs}
    assert tally.working == sum(1 for one in runs if one.tools)
    lacking = any(one.contents is None for one in runs)
    assert tally.contents == (None if lacking else merged(one.contents for one in runs))
    for position in range(positions):
        def at(values):
            return values[position] if position < len(values) else None
        vacuous = [one.path for one in runs if at(one.vacuous) and at(one.outcomes) == "pass"]
        assert tally.vacuous_count[position] == len(vacuous)
        assert tally.vacuous[position] == vacuous[:SHOWN_RUNS]
        assert tally.passed_everywhere[position] == all(at(one.outcomes) == "pass" for one in runs)
        idle = [one.path for one in runs if one.tools_certain and not one.tools
                and at(one.outcomes) == "pass" and not at(one.vacuous)]
        assert tally.idle_count[position] == len(idle)
        assert tally.idle[position] == idle[:SHOWN_RUNS]


def test_a_long_list_of_vacuous_runs_names_the_first_and_counts_the_rest():
    assertions = [A("no placeholder", 'not response contains "{fdId}"')]
    runs = [run(f"e/with/run-{n}", "with", [], ["pass"], [True]) for n in range(1, 13)]
    (suggestion,) = eval_feedback(assertions, runs)["suggestions"]
    assert "in 12 runs (e/with/run-1, e/with/run-2, e/with/run-3, e/with/run-4, e/with/run-5 and 7 more)" \
        in suggestion["reason"]
