"""A text whose lines end with a lone carriage return (as old Mac editors wrote
them) is cited line by line, as engine.text.file_lines and lines(...) count its
lines: a hit of contains, matches, words or numbers cited line 1 of such a
response and quoted the whole text, since only a line feed was taken for a line's
end there."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

LINES = ["# One", "alpha", "# Two", "beta", "gamma 42", "> q"]


def _cited(check: str, end: str) -> tuple[str, list]:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    run = memory_run({"outputs/response.md": end.join(LINES) + end})
    (verdict,) = evaluate(program.evals[0], run)
    return verdict.message, [(e.line, e.quote) for e in verdict.evidence]


@pytest.mark.parametrize("end", ["\r", "\n", "\r\n"])
@pytest.mark.parametrize("check, cited", [
    ('response contains "gamma"', [(5, "gamma 42")]),
    ('response contains "beta" ignoring case', [(4, "beta")]),
    ('response matches /gamma/', [(5, "gamma 42")]),
    ('any words(response) have . == "gamma"', [(5, "gamma")]),
    ('any numbers(response) have . == 42', [(5, "42")]),
    ('any lines(response) have . contains "gamma"', [(5, "gamma 42")]),
])
def test_a_hit_is_cited_on_its_line_whatever_ends_the_lines(check: str, cited: list, end: str):
    message, evidence = _cited(check, end)
    assert evidence == cited, message
    assert f"response.md:{cited[0][0]})" in message


def test_a_match_is_quoted_to_the_end_of_its_line():
    message, _ = _cited("response matches /gamma/", "\r")
    assert 'at "gamma 42"' in message, message
