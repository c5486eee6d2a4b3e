"""A CSV row after a blank line is cited at its own line. The blank line is left
out of the rows (as csv.DictReader does), but the line counting went on from the
blank line itself, so in "a,b\\n1,2\\n\\n3,rm\\n" the row "3,rm" was cited as
people.csv:3, the blank line, instead of people.csv:4."""

from __future__ import annotations

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _verdict(csv_text: str, check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "csv.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/people.csv": csv_text}))
    return verdict


def test_a_row_after_a_blank_line_is_cited_at_its_line():
    verdict = _verdict("a,b\n1,2\n\n3,rm\n", 'no file "people.csv" as csv have .b == "rm"')
    assert verdict.outcome.value == "fail", verdict.message
    assert "people.csv:4" in verdict.message, verdict.message
    assert {e.line for e in verdict.evidence} == {4}


def test_rows_after_several_blank_lines_keep_their_lines():
    verdict = _verdict("a,b\n\n1,2\n\n\n3,rm\n", 'all file "people.csv" as csv have .b == "x"')
    assert verdict.outcome.value == "fail", verdict.message
    assert "people.csv:3" in verdict.message and "people.csv:6" in verdict.message, verdict.message
