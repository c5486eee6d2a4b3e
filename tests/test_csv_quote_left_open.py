"""A CSV file whose last quoted cell is never closed. Python's reader (like others
that do not refuse it) takes the rest of the file into that one cell, so in
'a,b\\n"1,x\\n2,rm\\n' the row "2,rm" vanished into the cell a of line 2, and
'no file "x.csv" as csv have .b == "rm"' passed on a file whose every other
reader sees "rm" under b (or refuses). A check over such a file's rows is an
ERROR naming the file and the line where the open cell starts."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _verdict(csv_text: str, check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "csv.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/people.csv": csv_text}))
    return verdict


@pytest.mark.parametrize("check", [
    'no file "people.csv" as csv have .b == "rm"',
    'count(file "people.csv" as csv) == 1',
    'all file "people.csv" as csv have .b == null',
])
def test_a_quote_left_open_is_an_error(check: str):
    verdict = _verdict('a,b\n"1,x\n2,rm\n', check)
    assert verdict.outcome.value == "error", verdict.message
    assert "people.csv" in verdict.message and "line 2" in verdict.message, verdict.message


def test_a_header_with_a_quote_left_open_is_an_error():
    verdict = _verdict('"a,b\n1,2\n', 'header(file "people.csv" as csv) == ["a"]')
    assert verdict.outcome.value == "error", verdict.message
    assert "line 1" in verdict.message, verdict.message


@pytest.mark.parametrize("text", ['a,b\n"1\n2",x\n', 'a,b\n1,"x"', 'a,b\n1,"x"\n', 'a,b\r\n1,""\r\n', 'a,b', ''])
def test_quotes_that_close_are_read_as_before(text: str):
    verdict = _verdict(text, 'no file "people.csv" as csv have .b == "rm"')
    assert verdict.outcome.value == "pass", verdict.message


def test_a_multi_line_cell_that_closes_keeps_the_next_rows_line():
    verdict = _verdict('a,b\n"1\n2",x\n3,rm\n', 'no file "people.csv" as csv have .b == "rm"')
    assert verdict.outcome.value == "fail" and "people.csv:4" in verdict.message, verdict.message
