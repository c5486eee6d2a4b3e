"""A CSV file that starts with a blank line: its header is the first row that is not
blank, as csv.DictReader reads it. The blank line was taken for an empty header, so
the real header "a,b" became a data row, every check over the rows was an ERROR
("its header names 0") and header() was [] (a FAIL) on a well-formed table."""

from __future__ import annotations

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _verdict(csv_text: str, check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "csv.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/people.csv": csv_text}))
    return verdict


def test_rows_under_a_header_after_blank_lines_are_read():
    verdict = _verdict("\n\na,b\n1,rm\n", 'no file "people.csv" as csv have .b == "rm"')
    assert verdict.outcome.value == "fail", verdict.message
    assert "people.csv:4" in verdict.message, verdict.message


def test_the_header_after_blank_lines_is_cited_at_its_line():
    verdict = _verdict("\n\na,b\n1,rm\n", 'header(file "people.csv" as csv) == ["a", "b"]')
    assert verdict.outcome.value == "pass", verdict.message
    assert "people.csv:3" in verdict.message, verdict.message


def test_a_file_of_blank_lines_has_no_header_and_no_rows():
    verdict = _verdict("\n\n", 'count(file "people.csv" as csv) == 0 and header(file "people.csv" as csv) == []')
    assert verdict.outcome.value == "pass", verdict.message
