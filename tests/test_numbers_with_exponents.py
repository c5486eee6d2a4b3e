"""numbers() reads a number written with an exponent as the number it is.

"1.5e3" was read as 1.5 (the exponent, a digit right after a letter, dropped), so
'no numbers(response) have . > 1000' passed on a response that says 1.5e3 items,
and 'all numbers(response) have . in numbers(x)' took "1.5e3" for "1.5". An
exponent (e or E, a sign, digits) now belongs to its number, as in the
language's own literals (1e3 is 1000)."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _verdict(response: str, check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "r.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/response.md": response}))
    return verdict


def test_a_number_with_an_exponent_is_read_whole():
    verdict = _verdict("Loaded 1.5e3 rows, 2E-2 of them empty, 3e+2 kept, all 1e1.\n", "numbers(response) == [1500, 0.02, 300, 10]")
    assert verdict.outcome.value == "pass", verdict.message


def test_no_number_above_fails_on_a_number_with_an_exponent():
    verdict = _verdict("Loaded 1.5e3 rows.\n", "no numbers(response) have . > 1000")
    assert verdict.outcome.value == "fail", verdict.message
    assert '"1.5e3" is 1.5E+3' in verdict.message or '"1.5e3"' in verdict.message, verdict.message


@pytest.mark.parametrize("text, expected", [
    ("3 eggs and 12eggs", "[3, 12]"), ("B2B mp3 from 2019-2020, v2 and 3 units", "[2019, 2020, 3]"),
    ("1,250.50 and 12%", "[1250.50, 12]"), ("5e and e5", "[5]"),
])
def test_numbers_without_an_exponent_read_as_before(text: str, expected: str):
    verdict = _verdict(text + "\n", f"numbers(response) == {expected}")
    assert verdict.outcome.value == "pass", verdict.message
