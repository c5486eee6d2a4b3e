"""A rules file is parsed in time linear in its length: each statement's line is
counted on from the statement before, not from the start of the file again, which
took minutes for a file of 100,000 expectations."""

import time

from referee.dsl import parse_rules


def _rules(statements: int) -> str:
    comment = "# " + "x" * 2000 + "\n"  # long lines between statements: what is counted again
    body = "".join(f"expect {i}: response is not empty\n{comment}" for i in range(1, statements + 1))
    return "eval 1\n" + body


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(2):
        began = time.perf_counter()
        parsed = parse_rules(text, "big.rules")
        best = min(best, time.perf_counter() - began)
    assert parsed.evals[0].expects[-1].span.line == text.count("\n") - 1
    return best


def test_four_times_the_statements_take_about_four_times_the_time():
    small, large = _seconds(_rules(1500)), _seconds(_rules(6000))
    assert large < 8 * small  # four times the statements; counting again would take sixteen
