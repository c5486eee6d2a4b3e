"""numbers() reads a number in the notations text holds besides plain decimals.

"0x1F" was read as 0 (its x a letter, so the 1F after it started no number), so
'no numbers(response) have . > 10' passed on a response that writes 0x1F; "1_000"
was 1, and ".5" was no number at all. A hex, octal or binary literal is now the
number it writes, underscores group digits as code writes them, a point may open
a number, and the Arabic decimal point and thousands separator are read."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.checks import textwords
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.values import Val


def _verdict(response: str, check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "r.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/response.md": response}))
    return verdict


def _numbers(text: str) -> list[str]:
    return [str(n) for n in textwords.numbers(Val(text)).value]


@pytest.mark.parametrize("text, numbers", [
    ("0x1F", ["31"]), ("0XFF, 0o17 and 0b101", ["255", "15", "5"]), ("-0x1F", ["-31"]),
    ("0xFFFF_FFFF", ["4294967295"]),
    ("1_000 and 1_000_000", ["1000", "1000000"]),
    (".5, -.5 and $.50", ["0.5", "-0.5", "0.50"]),
    ("١٢ and １２", ["12", "12"]), ("١٢٫٥ and ١٬٢٣٤", ["12.5", "1234"]),
])
def test_numbers_in_other_notations(text, numbers):
    assert _numbers(text) == numbers


@pytest.mark.parametrize("text, numbers", [
    ("0xZZ 0b2 0xFFg", []), ("0x faster, 10x faster", ["0", "10"]),
    ("Fig.5 v1.2 ...5 1.2.3", ["1.2"]), ("1, 5 and 5.", ["1", "5", "5"]), ("pages 1,5,7", ["1", "5", "7"]),
])
def test_what_is_not_a_number_stays_none(text, numbers):
    assert _numbers(text) == numbers


def test_no_number_above_fails_on_a_hex_literal():
    verdict = _verdict("The mask is 0x1F.\n", "no numbers(response) have . > 10")
    assert verdict.outcome.value == "fail", verdict.message


def test_a_hex_literal_too_long_to_read_is_an_error():
    verdict = _verdict("0x" + "F" * 1001 + "\n", "no numbers(response) have . > 10")
    assert verdict.outcome.value == "error", verdict.message
    assert "1,000 digits" in verdict.message


# Written as some languages write numbers: a decimal comma (12,50 EUR, which was 12 and
# 50), points grouping thousands (1.250,50 was 1.250 and 50; 1.250.000 was 1.250), a
# lakh grouped by twos (1,00,000), a date with points (12.05.2024 was 12.05): which
# numbers the text writes cannot be told, so 'all numbers(response) have . < 100' and
# 'not (1250.50 in numbers(response))' no longer pass on the amount a reader sees.
@pytest.mark.parametrize("text", ["Betrag: 12,50 EUR", "1,5 kg", "Total 1.250,50 EUR", "1.250.000 Einwohner",
                                  "₹1,00,000", "lat 52,5200", "am 12.05.2024"])
def test_a_number_written_as_some_languages_write_it_is_an_error(text: str):
    verdict = _verdict(text + "\n", "all numbers(response) have . < 100")
    assert verdict.outcome.value == "error", verdict.message
    assert "as some languages write numbers" in verdict.message
