"""dsl.lalr parses as lark does: same trees, same tokens and positions, and it
refuses exactly what lark refuses (lark then gives the error).

The reference is the parser lark builds from the grammar.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra.lark import from_lark
from lark.exceptions import UnexpectedInput
from test_dsl_props import EXPLICIT, EXPLICIT_CONDITION
from test_dsl_tables import rules_texts

from referee.dsl import parser as dsl_parser
from referee.dsl.parser import STARTS, lark_parser, quick_parser

REPO = Path(__file__).resolve().parents[1]
_LARK = lark_parser()

# Words of the language and a few that are not, and what takes the parser further:
# CRLF, tabs, JSON values, calls and paths.
WORDS = ["expect", "1", ":", '"s"', "calls", "to", "glob", '"*x"', "with", "status", "success",
         "any", "have", ".args", "==", "!=", "<=", "and", "or", "not", "(", ")", "[", "]", "{",
         "}", ",", "let", "x", "=", "eval", "first(", "file", '"f.csv"', "as", "csv", "/a+/i",
         "matches", "contains", "ignoring", "case", "before", "in", "order", "exactly", "each",
         "of", "semantic", "response", ".", ".[0]", '["k"]', "-3.5", "1e5", "01", "true", "null",
         "#c\n", "\n", "where", "at", "step", "is", "empty", "between", "jsonpath(", "orders",
         "import", "_x", '"bad\\q"', "/", "\\", "@",
         "\r\n", "\t", '{"a": 1}', "f(x, y)", "x.y[0]", "all", "no"]


def _shape(node):
    """Everything of a tree that the syntax tree is built from."""
    if node is None:
        return None
    if hasattr(node, "data"):
        meta = node.meta
        where = tuple(getattr(meta, k, None) for k in
                      ("line", "column", "end_line", "end_column", "start_pos", "end_pos"))
        return ("tree", node.data, meta.empty, where, [_shape(c) for c in node.children])
    return ("token", node.type, str(node), node.line, node.column, node.end_line,
            node.end_column, node.start_pos, node.end_pos)


def _both(text: str, start: str):
    quick = quick_parser()
    assert quick is not None, "the tables are stale: run `python -m referee.dsl.tables`"
    mine = quick.parse(text, start)
    try:
        theirs = _shape(_LARK.parse(text, start=start))
    except UnexpectedInput:
        theirs = "refused"
    return ("refused" if mine is None else _shape(mine)), theirs


@pytest.mark.parametrize("start", STARTS)
def test_every_example_parses_alike(start):
    texts = rules_texts()
    assert len(texts) > 50
    for text in texts:
        mine, theirs = _both(text, start)
        assert mine == theirs, text


@given(st.lists(st.sampled_from(WORDS), max_size=16), st.sampled_from(STARTS))
def test_word_soup_parses_alike(words, start):
    mine, theirs = _both(" ".join(words), start)
    assert mine == theirs


@given(st.text(alphabet='expect 1:"let evl() ==.,/x#\n[]{}-eE\\', max_size=60), st.sampled_from(STARTS))
def test_any_text_parses_alike(text, start):
    mine, theirs = _both(text, start)
    assert mine == theirs


# Texts drawn from the grammar are often refused by its lexer and drawn again, as in
# test_dsl_props: the richer the grammar, the more of them.
GENERATED = [HealthCheck.filter_too_much, HealthCheck.too_slow]


@settings(max_examples=20, suppress_health_check=GENERATED)
@given(from_lark(lark_parser(), start="start", explicit=EXPLICIT))
def test_grammar_generated_files_parse_alike(text):
    mine, theirs = _both(text, "start")
    assert mine == theirs


@settings(max_examples=10, suppress_health_check=GENERATED)
@given(from_lark(lark_parser(), start="condition", explicit=EXPLICIT_CONDITION))
def test_grammar_generated_conditions_parse_alike(text):
    mine, theirs = _both(text, "condition")
    assert mine == theirs


def test_rules_are_read_the_same_without_the_quick_parser(monkeypatch):
    files = [(p, p.read_text(encoding="utf-8")) for p in sorted(REPO.glob("examples/**/*.rules"))]
    files.append((Path("broken.rules"), 'eval 1\nexpect 1: cuont(calls) = 1\nlet x = "a\\q"\n'))
    quick = [repr(dsl_parser.parse_rules_partial(text, str(p))) for p, text in files]
    monkeypatch.setattr(dsl_parser, "_quick_tree", lambda fragment, start: None)
    assert [repr(dsl_parser.parse_rules_partial(text, str(p))) for p, text in files] == quick
