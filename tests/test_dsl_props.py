"""Properties of the language front end, checked on generated input.

1. Any text either parses or raises RulesError, nothing else.
2. Text generated from the grammar itself parses (or fails only on static checks
   the grammar cannot express, never with a syntax error).
3. parse -> format -> parse gives an equal tree, and formatting is idempotent.
"""

from __future__ import annotations

import json
import keyword

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from referee import dsl
from referee.dsl import ast
from referee.dsl.errors import RulesError
from referee.dsl.parser import lark_parser
from referee.dsl.syntax import Terminals

RESERVED = frozenset(Terminals(lark_parser()).keywords)
# Static checks that grammar-generated text may trip: a NAME drawn for a file format
# or a status, a number drawn where a whole number is needed, a repeated name.
STATIC_CODES = {"bad-format", "bad-status", "bad-number", "bad-index", "duplicate-let",
                "duplicate-expect", "duplicate-eval", "duplicate-key"}

names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True).filter(
    lambda s: s not in RESERVED)
numbers = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.decimals(allow_nan=False, allow_infinity=False, places=3).map(
        lambda d: json.dumps(float(d)) if abs(d) < 10**6 else "1.5"),
    st.sampled_from(["1e3", "-2.5E-3", "0", "0.0", "12"]),
)
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
strings = texts.map(lambda s: json.dumps(s, ensure_ascii=False))
regexes = st.builds(
    lambda body, flags: "/" + body + "/" + flags,
    st.from_regex(r"[a-z0-9.*+?^$ ]{1,6}", fullmatch=True),
    st.sampled_from(["", "i", "ms", "imsx"]),
)


def _explicit(*unused: str) -> dict:
    """A strategy per terminal; keywords and punctuation get spaces around them so
    generated tokens never run together."""
    out = {
        "NAME": names.map(lambda s: f" {s} "),
        "FIELD": names.map(lambda s: f".{s} "),
        "DOT": st.just(" . "),
        "STRING": strings.map(lambda s: f" {s} "),
        "NUMBER": numbers.map(lambda s: f" {s} "),
        "REGEX": regexes.map(lambda s: f" {s} "),
        "COMPARE_OP": st.sampled_from(["==", "!=", "<", "<=", ">", ">="]).map(
            lambda s: f" {s} "),
        "COMMENT": st.just(" # a comment\n"),
        "WS": st.sampled_from([" ", "\n", "\t", "\r\n"]),
    }
    for term in lark_parser().terminals:
        if term.name not in out and term.pattern.type == "str" and term.name not in unused:
            out[term.name] = st.just(f" {term.pattern.value} ")
    return out


EXPLICIT = _explicit()
# A condition never holds statement keywords nor the '=' of let.
EXPLICIT_CONDITION = _explicit("EQUAL", "EVAL", "EXPECT", "LET")
SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _codes(exc: RulesError) -> set[str]:
    return {d.code for d in exc.diagnostics}


@SETTINGS
@given(st.text(max_size=200))
def test_any_text_parses_or_raises_rules_error(text):
    try:
        dsl.parse_rules(text, "fuzz.rules")
    except RulesError as exc:
        assert exc.diagnostics, "a RulesError always carries a diagnostic"
        for d in exc.diagnostics:
            assert d.line >= 0 and d.column >= 0
            assert "$END" not in d.message and "__ANON" not in d.message


@SETTINGS
@given(st.text(alphabet="evalxpctl =:()[]{}.\"/#\n1 anyhvs", max_size=120))
def test_keyword_soup_parses_or_raises_rules_error(text):
    try:
        dsl.parse_condition(text)
    except RulesError:
        pass


@SETTINGS
@given(from_lark(lark_parser(), start="start", explicit=EXPLICIT))
def test_grammar_generated_rules_parse(text):
    try:
        dsl.parse_rules(text, "gen.rules")
    except RulesError as exc:
        assert _codes(exc) <= STATIC_CODES, exc


@SETTINGS
@given(from_lark(lark_parser(), start="condition", explicit=EXPLICIT_CONDITION))
def test_grammar_generated_conditions_round_trip(text):
    try:
        tree = dsl.parse_condition(text)
    except RulesError as exc:
        assert _codes(exc) <= STATIC_CODES, exc
        return
    printed = dsl.format_condition(tree)
    again = dsl.parse_condition(printed)
    assert again == tree, printed
    assert dsl.format_condition(again) == printed


@SETTINGS
@given(from_lark(lark_parser(), start="start", explicit=EXPLICIT))
def test_grammar_generated_files_round_trip(text):
    try:
        tree = dsl.parse_rules(text, "gen.rules")
    except RulesError:
        return
    printed = dsl.format_rules(tree)
    again = dsl.parse_rules(printed, "gen.rules")
    assert again == tree, printed
    assert dsl.format_rules(again) == printed


PYTHON_KEYWORDS = sorted(w for w in keyword.kwlist if w not in RESERVED and w.islower())


@SETTINGS
@given(st.one_of(st.sampled_from(PYTHON_KEYWORDS), names))
def test_a_name_parses_to_itself_and_prints_back(word):
    # Python's keywords mean nothing to the language: they are ordinary names.
    tree = dsl.parse_value(word)
    assert tree == ast.NameRef(word)
    assert dsl.format_value(tree) == word
    rules = dsl.parse_rules(f"eval 1\nlet {word} = 1\nexpect: {word} == 1\n", "n.rules")
    assert rules.evals[0].lets[0].name == word
    assert dsl.parse_rules(dsl.format_rules(rules), "n.rules") == rules
