"""Each statement of a rules file is placed at its own line, however many come
before it: the parser counts each statement's lines on from the statement before
(counting them again from the start of the file took minutes for a file of
100,000 expectations; the time is measured by hand, never in a test)."""

from referee.dsl import parse_rules
from referee.dsl.parser import parse_rules_partial


def _rules(statements: int) -> str:
    # statements separated by comments of varying length and blank lines, the last
    # with no final line break: every kind of line the counting steps over
    parts = ["eval 1\n"]
    for i in range(1, statements + 1):
        parts.append(f"expect {i}: response is not empty\n" + "# note\n" * (i % 3) + "\n" * (i % 2))
    return "".join(parts).rstrip("\n")


def test_every_statement_is_at_the_line_it_stands_on():
    text = _rules(500)
    expected = [number for number, line in enumerate(text.split("\n"), start=1) if line.startswith("expect ")]
    parsed = parse_rules(text, "many.rules")
    assert [expect.span.line for expect in parsed.evals[0].expects] == expected


def test_a_statement_after_a_broken_one_keeps_its_line():
    text = "eval 1\nexpect 1: response is not empty\nexpect 2: (((\n\nexpect 3: response is not empty\n"
    rules, diagnostics = parse_rules_partial(text, "broken.rules")
    assert diagnostics and diagnostics[0].line == 3
    assert [expect.span.line for expect in rules.evals[0].expects] == [2, 5]
