"""A CSV file whose header names a column twice: a row, read as an object, holds one
cell per name, so the row's other cell under that name was lost without a word and
'no file "x" as csv where .email contains "@"' passed on a row holding an address in
the first 'email' column. Such a row cannot be read as an object: a check over the
rows is an ERROR naming the file, the line and the column. Where the cells under
the name agree (two blank columns, blank) nothing is lost, and the rows read as
before; header() gives the names as written."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _verdicts(csv_text: str, checks: list[str]):
    rules = "eval 1\n" + "".join(f"expect: {check}\n" for check in checks)
    program = compile_rules([dsl.parse_rules(rules, "csv.rules")], None)
    return evaluate(program.evals[0], memory_run({"outputs/people.csv": csv_text}))


@pytest.mark.parametrize("check", [
    'no file "people.csv" as csv where .email contains "@"',
    'all file "people.csv" as csv have not (text(.) contains "@")',
    'count(file "people.csv" as csv where .email == "") == 1',
])
def test_a_row_with_two_cells_under_one_name_is_an_error(check: str):
    (verdict,) = _verdicts("name,email,email\nana,ana@example.com,\nbo,,\n", [check])
    assert verdict.outcome.value == "error", verdict.message
    assert "people.csv" in verdict.message and "line 2" in verdict.message and '"email"' in verdict.message


def test_columns_named_twice_whose_cells_agree_are_read():
    checks = ['count(file "people.csv" as csv) == 2', 'any file "people.csv" as csv have .email == "bo@x.org"',
              'header(file "people.csv" as csv) == ["name", "email", "", ""]']
    verdicts = _verdicts("name,email,,\nana,,,\nbo,bo@x.org,,\n", checks)
    assert [v.outcome.value for v in verdicts] == ["pass", "pass", "pass"], [v.message for v in verdicts]


def test_the_header_of_a_file_with_such_rows_is_read():
    (verdict,) = _verdicts("a,a\n1,2\n", ['header(file "people.csv" as csv) == ["a", "a"]'])
    assert verdict.outcome.value == "pass", verdict.message


@pytest.mark.parametrize("check", [
    'no file "people.csv" as csv where text(.) contains "000"',
    'all file "people.csv" as csv have .amount == "1"',
])
def test_a_cell_beyond_the_header_is_an_error(check: str):
    # "1,000" unquoted: three cells under a header of two; the third has no column
    (verdict,) = _verdicts("name,amount\nBob,1,000\n", [check])
    assert verdict.outcome.value == "error", verdict.message
    assert "people.csv" in verdict.message and "line 2" in verdict.message and '"000"' in verdict.message


def test_a_blank_cell_beyond_the_header_is_left_out():
    verdicts = _verdicts("name,amount\nBob,1,\nAna,2, \n", ['all file "people.csv" as csv have .amount in ["1", "2"]'])
    assert [v.outcome.value for v in verdicts] == ["pass"], [v.message for v in verdicts]


def test_an_empty_file_is_said_to_be_there():
    # no row to select: vacuously none, and the message says the file is there, not missing
    verdicts = _verdicts("", ['no file "people.csv" as csv where .a == "1"'])
    assert verdicts[0].outcome.value == "pass"
    assert "is there, and holds none" in verdicts[0].message
    program = compile_rules([dsl.parse_rules('eval 1\nexpect: no file "other.csv" as csv where .a == "1"\n',
                                             "csv.rules")], None)
    (missing,) = evaluate(program.evals[0], memory_run({"outputs/people.csv": ""}))
    assert "the file does not exist" in missing.message
