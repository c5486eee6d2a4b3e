"""Diagnostics: stable codes, exact positions, caret rendering, did-you-mean, and
never a word of Lark's internals in a message."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from referee import dsl
from referee.dsl.errors import Diagnostic, RulesError, render, suggest
from referee.dsl.evals_json import loads_evals

CASES = yaml.safe_load((Path(__file__).parent / "conformance" / "errors-parse.yaml")
                       .read_text(encoding="utf-8"))
LARK_WORDS = re.compile(r"\$END|__ANON|\b(RPAR|LPAR|LSQB|RSQB|LBRACE|RBRACE|COMMA|COLON|"
                        r"EQUAL|NAME|STRING|NUMBER|REGEX|FIELD|COMPARE_OP|Token|Tree)\b")


def first_error(text: str) -> Diagnostic:
    with pytest.raises(RulesError) as caught:
        dsl.parse_rules(text, "case.rules")
    return caught.value.diagnostics[0]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_parse_error_cases(case):
    d = first_error(case["rules"])
    expected = case["error"]
    assert (d.code, d.line, d.column) == (expected["code"], expected["line"], expected["column"])
    assert not LARK_WORDS.search(d.message + (d.hint or "")), d.message


def test_render_has_location_source_caret_and_help():
    d = first_error('eval 1\nexpect 1: any call to "x"\n')
    assert render(d) == (
        "case.rules:2:15: error[unknown-source]: 'call' is not a selection\n"
        '  expect 1: any call to "x"\n'
        "                ^^^^\n"
        "  = help: did you mean 'calls'?"
    )


def test_render_without_hint_or_source():
    d = Diagnostic("bad-regex", "bad pattern", "r.rules", 3, 5, 9)
    assert render(d) == "r.rules:3:5: error[bad-regex]: bad pattern"


def test_render_in_color_keeps_the_text():
    d = first_error("eval 1\nexpect 1: x = 1\n")
    assert re.sub(r"\x1b\[[0-9;]*m", "", render(d, color=True)) == render(d)


def test_suggest():
    assert suggest("cuont", ["count", "first", "last"]) == "count"
    assert suggest("Count", ["count"]) == "count"
    assert suggest("zzz", ["count", "first"]) is None


def test_every_mistake_of_a_file_is_reported():
    text = ("eval 1\n"
            "expect 1: response = \"x\"\n"
            "expect 2: response contains \"abc\n"
            "expect 3: response matches /x/q\n"
            "expect 4: response is not empty\n")
    with pytest.raises(RulesError) as caught:
        dsl.parse_rules(text, "r.rules")
    found = [(d.code, d.line) for d in caught.value.diagnostics]
    assert found == [("syntax", 2), ("bad-string", 3), ("bad-flag", 4)]


def test_statements_on_one_line_recover_separately():
    with pytest.raises(RulesError) as caught:
        dsl.parse_rules("eval 1 expect 1: a = 1 expect 2: b ==", "r.rules")
    assert [(d.line, d.column) for d in caught.value.diagnostics] == [(1, 20), (1, 38)]


BROKEN = [
    "eval", "eval 1 expect", "eval 1 expect 1: (", "eval 1 expect 1: )", "eval 1 let",
    "eval 1 let x", "eval 1 let x =", "eval 1 expect 1: any", "eval 1 expect 1: a ==",
    "eval 1 expect 1: [1,", "eval 1 expect 1: {\"a\" 1}", "eval 1 expect 1: calls to",
    "eval 1 expect 1: calls with", "eval 1 expect 1: calls with status",
    "eval 1 expect 1: calls at step", "eval 1 expect 1: file", "eval 1 expect 1: file \"x\" as",
    "eval 1 expect 1: in order", "eval 1 expect 1: in order [", "eval 1 expect 1: each of [calls",
    "eval 1 expect 1: a is", "eval 1 expect 1: a is not", "eval 1 expect 1: not",
    "eval 1 expect 1: a ignoring case", "eval 1 expect 1: semantic", "eval 1 expect 1: a.",
    "eval 1 expect 1: a[", "eval 1 expect 1: a[\"x\"", "eval 1 expect 1: f(,)",
    "eval 1 expect 1: a fully", "eval 1 expect 1: exactly 2", "eval 1 expect 1: a == 1 1",
    "eval 1 expect 1: a @ b", "eval 1 expect 1: a == 'x'", "eval 1 expect 1: calls to glob /x/",
    "eval 1 expect 1: calls before", "eval 1 expect 1: any calls have", "eval 1 1",
    "eval 1 expect 1 2", "eval 1 expect \"a\" \"b\"", "eval 1 expect 1: a == 1 ignoring",
    "eval 1 \"x\" \"y\"", "eval 1 expect 1: calls where", "eval 1 expect 1: a between 1",
    "eval 1 expect 1: \u00e9t\u00e9 == 1", "eval 1 expect 1: a == 1\x00",
]


@pytest.mark.parametrize("text", BROKEN)
def test_broken_inputs_speak_the_language(text):
    with pytest.raises(RulesError) as caught:
        dsl.parse_rules(text, "r.rules")
    for d in caught.value.diagnostics:
        assert not LARK_WORDS.search(d.message + (d.hint or "")), d.message
        assert d.line == 1 and d.column >= 1
        assert render(d).startswith("r.rules:1:")


def test_end_of_file_is_named():
    d = first_error("eval 1\nexpect 1: count(calls) ==\n")
    assert d.message == "unexpected end of file: expected a value or a selection " \
        "(calls, notes, harness, response, outputs, metrics, timing, metadata, file \"...\", input \"...\")"
    assert (d.line, d.column) == (2, 26)


def test_parse_condition_reports_with_its_path():
    with pytest.raises(RulesError) as caught:
        dsl.parse_condition("a ==", "<check>")
    assert caught.value.diagnostics[0].location() == "<check>:1:5"


# ------------------------------------------------------------------ evals.json


def evals_text(referee: dict) -> str:
    return json.dumps({"skill_name": "s", "evals": [
        {"id": 1, "prompt": "p", "expectations": ["a", "b"], "referee": referee}]}, indent=2)


def test_evals_json_errors_point_into_the_json_file():
    text = evals_text({"checks": {"1": "count(calls) = 1"}})
    with pytest.raises(RulesError) as caught:
        loads_evals(text, "evals.json")
    d = caught.value.diagnostics[0]
    line = text.splitlines()[d.line - 1]
    assert d.code == "syntax" and d.path == "evals.json"
    assert line[d.column - 1] == "=" and d.source_line == line


def test_evals_json_escapes_shift_columns():
    text = evals_text({"checks": {"2": "response contains \"\\u00e9\" and = 2"}})
    with pytest.raises(RulesError) as caught:
        loads_evals(text, "evals.json")
    d = caught.value.diagnostics[0]
    assert text.splitlines()[d.line - 1][d.column - 1] == "="


def test_evals_json_rules_are_parsed_with_json_spans():
    text = evals_text({"let": {"n": "count(calls)"}, "checks": {"2": "n == 1", "1": "n > 0"}})
    entry = loads_evals(text, "evals.json").evals[0]
    assert [e.index for e in entry.rules.expects] == [1, 2]
    assert entry.rules.expects[0].sentence is None
    assert entry.rules.expects[1].source == "n == 1"
    span = entry.rules.lets[0].value.span
    assert text[span.start_pos:span.end_pos] == "count(calls)"


def test_evals_json_bad_index_and_name():
    text = evals_text({"let": {"a b": "1"}, "checks": {"3": "a == 1", "x": "a == 1"}})
    with pytest.raises(RulesError) as caught:
        loads_evals(text, "evals.json")
    assert sorted(d.code for d in caught.value.diagnostics) == \
        ["bad-evals", "bad-index", "bad-index"]


def test_malformed_evals_json():
    # The same message and place on every Python (before 3.13, json itself named
    # the '}' and a missing property name).
    with pytest.raises(RulesError) as caught:
        loads_evals('{"evals": [\n  {"id": 1,}\n]}', "evals.json")
    d = caught.value.diagnostics[0]
    assert (d.code, d.line, d.column) == ("bad-evals", 2, 11)
    assert d.message == "not valid JSON: Illegal trailing comma before end of object"


def test_evals_json_wrong_types_name_the_json_path():
    text = '{"evals": [{"id": 1, "expectations": ["ok", 3]}]}'
    with pytest.raises(RulesError) as caught:
        loads_evals(text, "evals.json")
    d = caught.value.diagnostics[0]
    assert d.code == "bad-evals" and "evals[0].expectations[1]" in d.message
    assert text[d.column - 1] == "3"


def test_evals_json_assertions_synonym_and_plain_file():
    text = '{"skill_name": "s", "evals": [{"id": "x", "assertions": ["a"]}]}'
    loaded = loads_evals(text)
    assert loaded.skill_name == "s"
    assert loaded.evals[0].expectations == ("a",) and loaded.evals[0].rules is None
    assert loaded.find("x") is loaded.evals[0]


def test_shared_example_evals_load():
    path = Path(__file__).resolve().parents[1] / "examples"
    found = sorted(path.glob("**/evals.json"))
    for evals in found:
        assert dsl.load_evals(evals).evals


@pytest.mark.parametrize("text, message, pos", [
    ('{"a": 1,}', "Illegal trailing comma before end of object", 7),
    ('[1, 2 ,\n ]', "Illegal trailing comma before end of array", 6),
    ('{"a": [1,] }', "Illegal trailing comma before end of array", 8),
    ('{"a": 1, ]', "Expecting property name enclosed in double quotes", 9),
    ('[1, }', "Expecting value", 4),
    ('{"a": ]', "Expecting value", 6),
    (']', "Expecting value", 0),
    ('[,]', "Expecting value", 1),
])
def test_a_json_syntax_error_reads_the_same_on_every_python(text, message, pos):
    from referee.dsl.json_locate import syntax_error

    with pytest.raises(json.JSONDecodeError) as raised:
        json.loads(text)
    error = syntax_error(raised.value)
    assert (error.msg, error.pos) == (message, pos)


def test_keys_that_are_bad_strings_are_not_one_key_twice():
    # each reads as '' after its bad-string; a key written twice beside them still counts
    with pytest.raises(RulesError) as caught:
        dsl.parse_rules('eval 1\nexpect 1: first(calls).args == {"\\ud800": 1, "a\\q": 2, "b": 1, "b": 2}\n',
                        "case.rules")
    assert [(d.code, d.column) for d in caught.value.diagnostics] == [
        ("bad-string", 33), ("bad-string", 48), ("duplicate-key", 64)]
