"""The quick scanners of the loaded parser (dsl.scan) find the tokens lark's own find.

The parser built from the grammar keeps lark's scanners, so comparing it with the
parser loaded from the tables compares the two kinds of scanner: same trees, same
tokens with the same positions, same errors with the same expected terminals.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, strategies as st
from lark.exceptions import UnexpectedInput

from referee.dsl import scan
from referee.dsl.parser import PARSER_OPTIONS, STARTS, build_parser, grammar_text, lark_parser
from referee.dsl.tables import saved_parser

REPO = Path(__file__).resolve().parents[1]
_BUILT = build_parser()

WORDS = ["expect", "1", ":", '"s"', "calls", "to", "glob", '"*x"', "with", "status", "success",
         "any", "have", ".args", "==", "!=", "<=", "and", "or", "not", "(", ")", "[", "]", "{",
         "}", ",", "let", "x", "=", "eval", "first(", "file", '"f.csv"', "as", "csv", "/a+/i",
         "matches", "contains", "ignoring", "case", "before", "in", "order", "exactly", "each",
         "of", "semantic", "response", ".", ".[0]", '["k"]', "-3.5", "1e5", "01", "true", "null",
         "#c\n", "\n", "where", "at", "step", "is", "empty", "between", "jsonpath(", "orders",
         "import", "_x", '"bad\\q"', "/", "\\", "@"]


def _outcome(parser, text: str, start: str):
    try:
        tree = parser.parse(text, start=start)
    except UnexpectedInput as err:
        token = getattr(err, "token", None)
        return ("error", type(err).__name__, err.line, err.column,
                sorted(getattr(err, "expected", None) or ()), sorted(getattr(err, "allowed", None) or ()),
                None if token is None else (token.type, str(token), token.start_pos))
    tokens = [(t.type, str(t), t.line, t.column, t.end_line, t.end_column, t.start_pos, t.end_pos)
              for t in tree.scan_values(lambda v: v is not None)]
    return ("tree", tree, tokens)


def _fresh():
    """A parser loaded from the tables that nothing has used yet."""
    parser = saved_parser(grammar_text(), PARSER_OPTIONS)
    assert parser is not None
    return parser


def test_the_loaded_parser_scans_quickly():
    parser = _fresh()
    parser.parse("expect 1: calls", start="expect_stmt")
    assert any(isinstance(lexer._scanner, scan.Quick) for lexer in parser.parser.lexer.lexers.values())


@given(st.lists(st.sampled_from(WORDS), max_size=16), st.sampled_from(STARTS))
def test_quick_and_lark_scanners_agree_on_words(words, start):
    text = " ".join(words)
    assert _outcome(lark_parser(), text, start) == _outcome(_BUILT, text, start)


@given(st.text(alphabet='expect 1:"let evl() ==.,/x#\n[]{}-eE\\', max_size=50), st.sampled_from(STARTS))
def test_quick_and_lark_scanners_agree_on_any_text(text, start):
    assert _outcome(lark_parser(), text, start) == _outcome(_BUILT, text, start)


def test_a_long_file_moves_to_lark_scanners_with_the_same_tokens():
    texts = [p.read_text(encoding="utf-8") for p in sorted(REPO.glob("examples/**/*.rules"))]
    long_text = "\n".join(texts * (scan.HEAVY_USE // 4 + 1))
    parser = _fresh()
    assert _outcome(parser, long_text, "start") == _outcome(_BUILT, long_text, "start")
    lexers = parser.parser.lexer.lexers.values()
    assert any(lexer._scanner is not None and not isinstance(lexer._scanner, scan.Quick)
               for lexer in lexers)
