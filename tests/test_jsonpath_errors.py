"""Where a JSONPath query's error is shown: under the character jsonpath-ng stopped at.

jsonpath-ng says where it stopped only in its message; these tests fail when that
message changes shape, so the caret would fall back to the whole query unseen."""

from __future__ import annotations

import pytest
from jsonpath_ng.ext import parse

from referee import dsl
from referee.engine.checks.jsonpath_names import error_at
from referee.engine.grade import RulesSource


@pytest.mark.parametrize(("query", "offset"), [
    ("$.Müller", 3),          # the lexer: "Error on line 1, col 3: Unexpected character: ü"
    ("$.a b", 4),             # the parser: "Parse error at 1:4 near token b (ID)"
    ("$.guests[?(@.n == 1", 19),  # "Parse error near the end of string!"
])
def test_jsonpath_ng_says_where_it_stopped(query: str, offset: int):
    with pytest.raises(Exception) as refused:
        parse(query)
    assert error_at(str(refused.value).strip().splitlines()[0], query) == offset


def _diagnostic(query_literal: str, before: str = "") -> tuple[int, int, int]:
    text = f'eval 1\nexpect 1: count(jsonpath(metrics,{before} {query_literal})) == 1\n'
    with pytest.raises(dsl.RulesError) as refused:
        RulesSource((("case.rules", text),)).compile()
    (found,) = refused.value.diagnostics
    return found.line, found.column, found.end_column


def test_one_caret_under_the_character_refused():
    assert _diagnostic('"$.Müller"') == (2, 39, 40)


def test_a_query_on_a_line_of_its_own_is_marked_there():
    line, column, end = _diagnostic('"$.Müller"', before="\n     ")
    assert (line, column, end) == (3, 11, 12)  # six blanks, the quote, "$.M"


def test_a_query_written_with_escapes_is_marked_whole():
    # "\u00fc" is six characters where the query has one: no column of the text is known
    assert _diagnostic('"$.M\\u00fcller"') == (2, 35, 50)
