"""The compiler: every static error reported with its place, static properties,
assertion order with evals.json, and how a run finds its eval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import dsl
from referee.engine.compile import check_rules, compile_rules
from referee.engine.run.model import RunId
from referee.engine.verdict import Precision


def diagnostics(text: str) -> list:
    return check_rules([dsl.parse_rules(text, "t.rules")])


def codes(text: str) -> list[str]:
    return [d.code for d in diagnostics(text)]


def test_all_errors_are_reported_not_the_first():
    text = ("eval 1\n"
            "expect 1: cuont(calls) == 1\n"
            "expect 2: respons_x == 1\n"
            "expect 3: response matches /a(b/\n")
    found = diagnostics(text)
    assert [d.code for d in found] == ["unknown-function", "unknown-name", "bad-regex"]
    assert [d.line for d in found] == [2, 3, 4]
    assert found[0].hint == "did you mean 'count'?"
    assert all(d.path == "t.rules" for d in found)


def test_unknown_let_name_suggests():
    found = diagnostics("eval 1\nlet amount = 1\nexpect 1: amuont == 1\n")
    assert found[0].code == "unknown-name" and found[0].hint == "did you mean 'amount'?"
    assert (found[0].line, found[0].column) == (3, 11)


def test_let_cycle_points_at_the_let():
    found = diagnostics("eval 1\nlet a = b\nlet b = c\nlet c = a\nexpect 1: a == 1\n")
    assert [(d.code, d.line, d.column) for d in found] == [("name-cycle", 2, 1)]
    assert "a -> b -> c -> a" in found[0].message


def test_regex_error_column_adds_the_position_in_the_pattern():
    found = diagnostics('eval 1\nexpect 1: response matches /ab[c/\n')
    literal_column = len("expect 1: response matches ") + 1
    assert found[0].code == "bad-regex"
    assert found[0].column > literal_column


def test_jsonpath_regex_operator_is_refused():
    found = diagnostics('eval 1\nexpect 1: count(jsonpath(metrics, "$[?(@.a =~ \'x\')]")) == 1\n')
    assert found[0].code == "jsonpath-regex"
    assert "matches" in found[0].message


def test_jsonpath_quoted_regex_operator_is_text():
    assert codes('eval 1\nexpect 1: count(jsonpath(metrics, "$[?(@.a == \'=~\')]")) == 1\n') == []


@pytest.mark.parametrize("query", ["$[", "$.'", "$.foo(", ""])
def test_bad_jsonpath(query):
    text = f"eval 1\nexpect 1: count(jsonpath(metrics, {json.dumps(query)})) == 1\n"
    assert codes(text) == ["bad-jsonpath"]


@pytest.mark.parametrize("check, code", [
    ('response matches "x"', "bad-operand"),
    ('any notes to "x"', "bad-operand"),
    ('any outputs with status success', "bad-operand"),
    ('file "a.csv" as csv before response', "bad-operand"),
    ('in order [notes, calls]', "bad-operand"),
    ('header(file "a.csv") == ["a"]', "bad-operand"),
    ('any calls have semantic "x"', "bad-operand"),
    ('.args.a == 1', "bad-path"),
    ('any calls have .arg.x == 1', "unknown-field"),
    ('first(calls).arguments == 1', "unknown-field"),
    ('any calls at step 0', "bad-step"),
    ('first(calls, notes) == 1', "wrong-arity"),
    ('jsonpath(metrics, "$.a", "$.b") == 1', "wrong-arity"),
])
def test_static_errors(check, code):
    assert code in codes(f"eval 1\nexpect 1: {check}\n")


def test_field_of_a_list_is_a_bad_step():
    assert codes('eval 1\nlet c = calls to "x"\nexpect 1: c.args == 1\n') == ["bad-path"]
    assert codes('eval 1\nlet c = calls to "x"\nexpect 1: c[0].args == 1\n') == []


def test_unknown_field_suggests():
    found = diagnostics("eval 1\nexpect 1: any calls have .arg == 1\n")
    assert found[0].hint == "did you mean 'args'?"


def test_regexes_and_jsonpaths_compile_once():
    program = compile_rules([dsl.parse_rules(
        'eval 1\nexpect 1: response matches /a+/i and count(jsonpath(metrics, "$.a")) == 1\n', "t")])
    check = program.evals[0].assertions[0].check
    pattern = check.operands[0].operand
    assert pattern.compiled.pattern == "a+"
    assert check.operands[1].left.arg.query is not None


def test_compile_rules_raises_with_all_diagnostics():
    with pytest.raises(dsl.RulesError) as caught:
        compile_rules([dsl.parse_rules("eval 1\nexpect 1: foo(1) == bar\n", "t.rules")])
    assert [d.code for d in caught.value.diagnostics] == ["unknown-function", "unknown-name"]


@pytest.mark.parametrize("check, precision, source", [
    ("response is not empty", Precision.EXISTENCE, "response"),
    ('exists file "a" and not calls is empty', Precision.EXISTENCE, "tool_calls+outputs"),
    ('response contains "x"', Precision.EXACT_MATCH, "response"),
    ('response contains "x" and semantic "ok?"', Precision.SEMANTIC, "response"),
    ('any notes have .text contains "x"', Precision.EXACT_MATCH, "agent_notes"),
    ("metrics.a == timing.b", Precision.EXACT_MATCH, "metrics+timing"),
    ("n == 1", Precision.EXACT_MATCH, "tool_calls"),
])
def test_static_properties(check, precision, source):
    text = f'eval 1\nlet n = count(calls)\nexpect 1: {check}\n'
    assertion = compile_rules([dsl.parse_rules(text, "t")]).evals[0].assertions[0]
    assert assertion.precision is precision
    assert assertion.evidence_source == source
    assert assertion.gated is (precision is not Precision.EXISTENCE)


@pytest.fixture
def evals_file(tmp_path: Path):
    path = tmp_path / "evals.json"
    path.write_text(json.dumps({"skill_name": "s", "evals": [
        {"id": 1, "prompt": "p", "expectations": ["one", "two", "three"]},
        {"id": 2, "prompt": "q", "expectations": ["only"]},
    ]}), encoding="utf-8")
    return dsl.load_evals(path)


def test_order_follows_evals_json_then_unlinked(evals_file):
    text = ('eval 1 "first"\nexpect: response is not empty\nexpect 3: response contains "x"\n'
            'expect 1 "Own sentence": calls is not empty\n')
    program = compile_rules([dsl.parse_rules(text, "t.rules")], evals_file)
    ev = program.evals[0]
    assert [a.key for a in ev.assertions] == ["1#1", "1#2", "1#3", "1#4"]
    assert [a.index for a in ev.assertions] == [1, 2, 3, None]
    assert [a.text for a in ev.assertions] == ["Own sentence", "two", "three", "response is not empty"]
    assert ev.assertions[1].check is None and ev.assertions[1].precision is Precision.SEMANTIC
    assert ev.assertions[1].semantic_rubric == "two"
    assert program.evals[1].assertions[0].text == "only"


def test_eval_named_by_name_and_unknown_eval(evals_file):
    found = check_rules([dsl.parse_rules('eval "nope"\nexpect 1: calls is empty\n', "t")], evals_file)
    assert [d.code for d in found] == ["unknown-eval"]
    found = check_rules([dsl.parse_rules("eval 1\nexpect 9: calls is empty\n", "t")], evals_file)
    assert [d.code for d in found] == ["bad-index"]


def _evals(tmp_path: Path, evals: list) -> dsl.EvalsFile:
    path = tmp_path / "evals.json"
    path.write_text(json.dumps({"evals": evals}, indent=1), encoding="utf-8")
    return dsl.load_evals(path)


@pytest.mark.parametrize("header", ['eval 1', 'eval "1"'])
def test_a_key_that_is_one_evals_id_and_anothers_name_is_ambiguous(tmp_path, header):
    # was: the eval with id 1, silently, though eval 2 is named "1"
    evals = _evals(tmp_path, [{"id": 1, "expectations": ["one"]},
                              {"id": 2, "name": "1", "expectations": ["two"]}])
    found = check_rules([dsl.parse_rules(f"{header}\nexpect 1: calls is empty\n", "t")], evals)
    assert [(d.code, d.line, d.column) for d in found] == [("ambiguous-eval", 1, 1)]
    assert "the name of the eval with id 2" in found[0].message


def test_a_name_two_evals_share_is_ambiguous_and_their_ids_are_not(tmp_path):
    evals = _evals(tmp_path, [{"id": 1, "name": "book", "expectations": ["one"]},
                              {"id": 2, "name": "book", "expectations": ["two"]}])
    found = check_rules([dsl.parse_rules('eval "book"\nexpect 1: calls is empty\n', "t")], evals)
    assert [d.code for d in found] == ["ambiguous-eval"]
    assert check_rules([dsl.parse_rules("eval 2\nexpect 1: calls is empty\n", "t")], evals) == []


def test_an_eval_named_by_its_own_id_is_no_ambiguity(tmp_path):
    evals = _evals(tmp_path, [{"id": 3, "name": "3", "expectations": ["one"],
                               "referee": {"checks": {"1": "calls is empty"}}}])
    assert check_rules([dsl.parse_rules('eval "3"\nexpect "x": calls is empty\n', "t")], evals) == []


@pytest.mark.parametrize("second", [1, "1"])
def test_an_id_given_twice_in_evals_json_is_an_error(tmp_path, second):
    # was: the second eval replaced the first, whose sentences were graded by no rule
    with pytest.raises(dsl.RulesError) as raised:
        _evals(tmp_path, [{"id": 1, "expectations": ["one"]}, {"id": second, "expectations": ["two"]}])
    (found,) = raised.value.diagnostics
    assert (found.code, found.line) == ("bad-evals", 10)  # at the second id
    assert "is the id of evals[0] too" in found.message


def test_blocks_of_several_files_merge_and_duplicates_are_errors():
    a = dsl.parse_rules("eval 1\nlet n = 1\nexpect 1: n == 1\n", "a.rules")
    b = dsl.parse_rules("eval 1\nlet n = 2\nexpect 1: n == 2\nexpect 2: n == 1\n", "b.rules")
    found = check_rules([a, b])
    # b's expect 2 has the text of a's expect 1 (its check): the viewer would show one for both
    assert [(d.code, d.path) for d in found] == [("duplicate-let", "b.rules"),
                                                 ("duplicate-expect", "b.rules"),
                                                 ("duplicate-text", "b.rules")]


def test_for_run_by_id_then_name():
    text = 'eval 1 "expense"\nexpect: calls is empty\neval "sales"\nexpect: calls is empty\n'
    program = compile_rules([dsl.parse_rules(text, "t")])
    by_id = RunId("x", "1", None, "with_skill", 1)
    by_name = RunId("y", "7", "sales", "with_skill", 1)
    assert program.for_run(by_id, {}).key == "1"
    assert program.for_run(by_name, {}).key == "sales"
    assert program.for_run(RunId("z", "9", None, "c", 1), {"eval_name": "expense"}).key == "1"
    assert program.for_run(RunId("z", "9", None, "c", 1), {}) is None
