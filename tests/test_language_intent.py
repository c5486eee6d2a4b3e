"""What authors naturally write, said in the language: byte order marks, `check`
with evals.json alone or against a workspace, messages that say what went wrong."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import dsl
from referee.dsl.evals_json import loads_evals
from referee.engine.cli import main
from referee.engine.compile import check_rules

BOM = "\ufeff"


def check(tmp_path: Path, capsys, *args: str) -> tuple[int, str]:
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        code = main(["check", *args])
    finally:
        os.chdir(old)
    return code, capsys.readouterr().out


# ------------------------------------------------------------------ byte order mark


def test_a_rules_file_with_a_byte_order_mark_parses():
    tree = dsl.parse_rules(BOM + 'eval 1\nexpect: response contains "x"\n', "bom.rules")
    assert tree == dsl.parse_rules('eval 1\nexpect: response contains "x"\n', "bom.rules")


def test_an_evals_json_with_a_byte_order_mark_loads():
    text = json.dumps({"skill_name": "s", "evals": [{"id": 1, "prompt": "p",
                                                      "expectations": ["It works."]}]})
    assert loads_evals(BOM + text, "evals.json").evals[0].id == "1"


def test_check_accepts_a_byte_order_mark(tmp_path, capsys):
    (tmp_path / "bom.rules").write_bytes((BOM + 'eval 1\nexpect: response contains "x"\n')
                                         .encode("utf-8"))
    assert check(tmp_path, capsys, "bom.rules") == (0, "ok: 1 file, 1 assertion\n")


# ------------------------------------------------------ a condition that ended early


def diagnostics(rules: str):
    try:
        return check_rules([dsl.parse_rules(rules, "t.rules")])
    except dsl.RulesError as err:
        return err.diagnostics


@pytest.mark.parametrize("clause,word", [("where", "and"), ("have", "or")])
def test_a_condition_that_ended_at_and_says_so_and_shows_the_fix(clause, word):
    rules = f'eval 1\nexpect: any calls {clause} .tool == "a" {word} .status == "error"\n'
    (found,) = [d for d in diagnostics(rules) if d.code == "bad-path"]
    assert found.message == (f"the '{clause}' condition ended at '{word}', so '.status' has "
                             "no current element")
    assert found.hint == (f'parenthesise the whole condition: {clause} (.tool == "a" {word} '
                          '.status == "error")')


def test_inside_parentheses_the_early_end_is_explained_too():
    (found,) = diagnostics('eval 1\nexpect: count(calls where .tool == "a" and .step == 2) == 1\n')
    assert "ended before 'and'" in found.message and "parenthesise" in found.hint


# ------------------------------------------------------------------- text normalisers


@pytest.mark.parametrize("condition", [
    'number(replace("2,355", ",", "")) == 2355',
    'replace("a-b-c", "-", "") == "abc"',
    'lower(trim("  Draft ")) == "draft"',
    'upper("eur") == "EUR"',
    'collapse("Expense\\n  draft\\tsaved ") == "Expense draft saved"',
    'not replace(response, "x", "") contains "x"',
])
def test_text_normalisers_pass(tmp_path, condition):
    assert verdict_on(tmp_path, condition, response="x and x").outcome.value == "pass"


def test_replace_reports_its_arity_and_types(tmp_path):
    (arity,) = diagnostics('eval 1\nexpect: replace(response, ",") == "x"\n')
    assert (arity.code, arity.message) == ("wrong-arity", "replace() takes 3 arguments, got 2")
    wrong = verdict_on(tmp_path, 'replace(response, 1, "") == "x"', response="x")
    assert wrong.outcome.value == "error" and "replace() needs text" in wrong.message


def test_every_normaliser_is_documented_with_an_example_the_doc_test_runs():
    import re

    doc = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text("utf-8")
    examples = "\n".join(re.findall(r"^```referee\n(.*?)^```$", doc, flags=re.S | re.M))
    for name in ("replace", "lower", "upper", "trim", "collapse"):
        assert f"`{name}(" in doc, name
        assert f"{name}(" in examples, name


def verdict_on(tmp_path: Path, condition: str, response: str):
    from referee.engine.compile import compile_rules
    from referee.engine.evaluate import evaluate
    from referee.engine.run.workspace import load_run

    run_dir = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run_dir / "outputs").mkdir(parents=True)
    (run_dir / "outputs" / "response.md").write_text(response, encoding="utf-8")
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {condition}\n", "t.rules")])
    return evaluate(program.evals[0], load_run(run_dir))[0]


# --------------------------------------------------------- the critique of tool names


def critique(rules: str, runs):
    from referee.engine.facts.feedback import eval_feedback

    program = compile_rules_text(rules)
    return [s["reason"] for s in eval_feedback(program.evals[0].assertions, runs)["suggestions"]]


def compile_rules_text(rules: str, **options):
    from referee.engine.compile import compile_rules

    return compile_rules([dsl.parse_rules(rules, "t.rules")], **options)


def facts(tools, outcomes, contents=None, path="e/with/run-1", configuration="with"):
    from referee.engine.facts.feedback import RunFacts

    return RunFacts(path, configuration, tuple(tools), tuple(outcomes),
                    (False,) * len(outcomes), contents)


def test_the_critique_matches_tool_names_as_the_checks_do():
    # \p{Lu} is the regex module's syntax: the check matched SaveDoc, so must the critique.
    reasons = critique("eval 1\nexpect: any calls to /\\p{Lu}\\w+/\n", [facts(["SaveDoc"], ["pass"])])
    assert reasons == []


def test_forbidding_a_tool_no_run_called_is_what_the_author_wants():
    reasons = critique('eval 1\nexpect: count(calls to "deleteDoc") == 0\n',
                       [facts(["saveDoc"], ["pass"]), facts(["readDoc"], ["pass"], path="r2")])
    assert reasons == []
    # No word on the tool's name either when a run made no call at all; that run
    # passing a check that only forbids is worth a word of its own.
    (reason,) = critique('eval 1\nexpect: count(calls to "deleteDoc") == 0\n',
                         [facts(["saveDoc"], ["pass"]), facts([], ["pass"], path="r2")])
    assert reason.startswith("passed in 1 run that made no tool call (r2) while 1 other run of this eval made some")


def test_forbidding_a_misspelt_tool_is_flagged_with_the_near_name():
    (reason,) = critique('eval 1\nexpect: count(calls to "deleteDco") == 0\n',
                         [facts(["mcp__erp__deleteDoc"], ["pass"])])
    assert reason.startswith("forbids calls to deleteDco, which no run called")
    assert "did you mean 'mcp__erp__deleteDoc'?" in reason


def test_requiring_a_tool_no_run_called_names_the_near_tool():
    (reason,) = critique('eval 1\nexpect: any calls to glob "*saveExpenseDco"\n',
                         [facts(["mcp__erp__saveExpenseDoc"], ["fail"])])
    assert reason.startswith("selects calls to *saveExpenseDco, which no run of this eval called")
    assert "did you mean 'mcp__erp__saveExpenseDoc'?" in reason


def test_a_catastrophic_tool_pattern_is_decided():
    from referee.engine.facts.feedback import eval_feedback

    program = compile_rules_text("eval 1\nexpect: any calls to /(a|aa)+$/\n")
    runs = [facts(["a" * 40 + "!" + str(n) for n in range(5)], ["fail"])]
    # The pattern runs in linear time: no tool name matches, and the feedback says so.
    (reason,) = [s["reason"] for s in eval_feedback(program.evals[0].assertions, runs)["suggestions"]]
    assert reason.startswith("selects calls to /(a|aa)+$/, which no run of this eval called")


def test_a_field_no_run_has_is_flagged():
    from referee.engine.facts.contents import Contents

    held = Contents(frozenset({"save"}), frozenset({"docStatus"}), frozenset({"summary.csv"}),
                    frozenset({"total_duration_seconds", "total_tokens_used"}), frozenset())
    reasons = critique('eval 1\nexpect: timing.total_tokens > 0\n'
                       'expect: first(calls to "save").args.docStatsu == "1"\n'
                       'expect: file "sumary.csv" contains "x"\n',
                       [facts(["save"], ["fail", "fail", "fail"], held)])
    assert reasons == [
        "reads timing.total_tokens, but no run's timing.json has the field 'total_tokens'; "
        "did you mean 'total_tokens_used'?; check the name, or the runs never produce it",
        "reads args.docStatsu, but no call in any run has the argument field 'docStatsu'; "
        "did you mean 'docStatus'?; check the name, or the runs never produce it",
        "reads file \"sumary.csv\", but no run has the file outputs/sumary.csv; "
        "did you mean 'summary.csv'?; check the name, or the runs never produce it",
    ]


def test_grading_flags_a_timing_field_no_run_has(tmp_path):
    import shutil

    from conftest import REPO

    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", workspace)
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "tokens were counted": timing.total_tokns > 0\n',
                     encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(rules)])
    report = json.loads(next(workspace.rglob("eval-1-*/with_skill/run-1/grading.json"))
                        .read_text("utf-8"))
    reasons = [s["reason"] for s in report["eval_feedback"]["suggestions"]]
    assert any(r.startswith("reads timing.total_tokns, but no run") and "total_tokens" in r for r in reasons), reasons


# ------------------------------------------------------------ check --evals, --workspace


def embedded_evals(tmp_path: Path, check_text: str) -> Path:
    evals = {"skill_name": "s", "evals": [{"id": 1, "prompt": "p", "expectations": ["One save."],
                                           "referee": {"checks": {"1": check_text}}}]}
    path = tmp_path / "evals.json"
    path.write_text(json.dumps(evals), encoding="utf-8")
    return path


def test_check_with_evals_alone_checks_the_rules_inside(tmp_path, capsys):
    embedded_evals(tmp_path, 'count(calls to "save") == 1')
    assert check(tmp_path, capsys, "--evals", "evals.json") == (0, "ok: 1 file, 1 assertion\n")
    embedded_evals(tmp_path, 'cuont(calls to "save") == 1')
    code, out = check(tmp_path, capsys, "--evals", "evals.json")
    assert code == 1 and "error[unknown-function]: unknown function 'cuont'" in out


def test_check_without_rules_says_what_to_give(capsys):
    assert main(["check"]) == 2
    assert "name a rules file, or --evals evals.json" in capsys.readouterr().err


TYPOS = {'"*bookReservation" with': '"*bookReservaton" with',
         "booked.args.flightId": "booked.args.flightID",
         '"fares.csv" as csv': '"fare.csv" as csv'}


def test_check_against_a_workspace_warns_about_names_no_run_has(tmp_path, capsys):
    import shutil

    from conftest import REPO

    shutil.copytree(REPO / "examples" / "booking-skill-workspace", tmp_path / "ws")
    text = (REPO / "examples" / "booking-skill" / "booking.rules").read_text("utf-8")
    (tmp_path / "good.rules").write_text(text, encoding="utf-8")
    for wrong, typo in TYPOS.items():
        text = text.replace(wrong, typo)
    (tmp_path / "typo.rules").write_text(text, encoding="utf-8")
    assert check(tmp_path, capsys, "good.rules", "--workspace", "ws") == (
        0, "ok: 1 file, 11 assertions\n")
    code, out = check(tmp_path, capsys, "typo.rules", "--workspace", "ws")
    assert code == 0 and out.endswith("ok: 1 file, 11 assertions, 4 warnings\n")
    assert ('typo.rules:5:28: warning[unseen-tool]: no run called a tool matching glob '
            '"*bookReservaton" (tools called: travel_bookReservation, travel_searchFlights) '
            "(eval 1, 4 runs)") in out
    assert "= help: did you mean 'travel_bookReservation'?" in out
    assert "warning[unseen-field]: no call in any run has the argument field 'flightID'" in out
    assert "= help: did you mean 'flightId'?" in out
    assert "warning[unseen-file]: no run has the file outputs/fare.csv" in out
    assert "= help: did you mean 'fares.csv'?" in out


def test_every_warning_code_is_documented():
    from referee.dsl.errors import WARNING_CODES

    doc = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text("utf-8")
    for code in WARNING_CODES:
        assert f"`{code}`" in doc, code


# ------------------------------------------------------------------------ one caret rule


def test_the_caret_end_of_a_span_is_decided_in_one_place():
    import re

    from referee.dsl.ast import Span

    root = Path(__file__).resolve().parents[1]
    # Every diagnostic's end column comes from Span.caret_end; none computes its own.
    computed = [f"{path.relative_to(root)}:{n}"
                for folder in ("dsl", "engine") for path in sorted((root / folder).rglob("*.py"))
                for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
                if re.search(r"end_line == [a-z_.]*line", line)]
    assert [c for c in computed if not c.startswith("dsl/span.py:")] == [] and computed
    assert Span(2, 5, 2, 9).caret_end() == 9 and Span(2, 5, 4, 1).caret_end() == 6


def test_reads_name_argument_fields_of_calls_only():
    from referee.engine.checks.static import reads

    tree = dsl.parse_rules('eval 1\nlet s = last(calls)\nexpect: s.args.a == 1 and '
                           'calls[0].args.b == 1 and s.return.body.args.c == 1 and '
                           'any calls have .args.d == 1\n', "t.rules")
    found = [(r.kind, r.name) for r in reads(tree.evals[0].expects[0].check)]
    assert found == [("arg", "a"), ("arg", "b"), ("arg", "d")]


# ---------------------------------------------- quantifiers over list values, as Python


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6), st.integers(-5, 5), st.integers(0, 6))
def test_quantifiers_over_a_list_value_agree_with_python(items, bound, exactly):
    from referee.engine.evaluate import evaluate
    from referee.engine.run.memory import memory_run

    named = json.dumps({f"k{x}": x for x in items})
    rules = (f"eval 1\nlet xs = {json.dumps(items)}\n"
             f"expect: all xs have . > {bound}\nexpect: any xs have . > {bound}\n"
             f"expect: no xs have . > {bound}\nexpect: exactly {exactly} xs have . > {bound}\n"
             f"expect: all keys({named}) have . starts with \"k\"\n"
             f"expect: any keys({named}) have . == \"k{bound}\"\n")
    program = compile_rules_text(rules)
    outcomes = [v.outcome.value for v in evaluate(program.evals[0], memory_run({}))]
    above = [x > bound for x in items]
    want = [all(above), any(above), not any(above), sum(above) == exactly, True, bound in items]
    assert outcomes == ["pass" if w else "fail" for w in want], (items, bound, outcomes)


def test_check_against_a_missing_workspace_says_so(tmp_path, capsys):
    (tmp_path / "a.rules").write_text('eval 1\nexpect: any calls to "x"\n', encoding="utf-8")
    nope = tmp_path / "nope"
    assert main(["check", str(tmp_path / "a.rules"), "--workspace", str(nope)]) == 2
    assert f"no runs found under {nope}: the workspace is not a directory" in capsys.readouterr().err
