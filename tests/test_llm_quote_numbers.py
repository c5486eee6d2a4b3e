"""A grader's quote cannot change a number: its sign, its digits or its decimal point."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


# a minus sign as typesetting writes it: en dash, figure dash, hyphen, non-breaking hyphen
@pytest.mark.parametrize("dash", ["\u2013", "\u2012", "\u2010", "\u2011", "\u2014", "\ufe63", "\uff0d"])
def test_a_dash_before_a_number_is_its_sign(dash):
    text = f"The balance: {dash}500.00 EUR after the refund."
    assert not found(text, "The balance: 500.00 EUR")
    assert not found(text, "500.00 EUR after the refund")
    assert found(text, f"The balance: {dash}500.00 EUR")  # quoted as written


@pytest.mark.parametrize("text, quote", [
    ("flight LX\u20132084 booked", "flight LX 2084 booked"),  # inside an identifier
    ("the cost\u2014500 EUR in all", "the cost 500 EUR in all"),  # a dash in prose, after a word
])
def test_a_dash_between_words_or_numbers_is_still_punctuation(text, quote):
    assert found(text, quote)


@pytest.mark.parametrize("text, quote", [
    ("The area is 10\u00b2 square metres.", "The area is 102 square metres."),  # 10 squared is not 102
    ("The area is 102 square metres.", "The area is 10\u00b2 square metres."),
    ("Use 2\u00b9\u2070 slots per node.", "Use 210 slots per node."),
    ("The formula is CO\u2082 and H\u2082O here.", "The formula is CO2 and H2O here."),
    ("Items \u2460\u2461 were shipped today.", "Items 12 were shipped today."),
    ("It took 1\u00bd hours to finish.", "It took 11\u20442 hours to finish."),
])
def test_a_digit_written_raised_lowered_or_circled_is_not_a_plain_digit(text, quote):
    assert not found(text, quote)
    assert found(text, text)


def test_full_width_digits_are_still_digits():
    assert found("Total: \uff11\uff16\uff18.00 EUR today", "Total: 168.00 EUR today")


@pytest.mark.parametrize("text, quote", [
    ("The dose is 10.5 mg daily", ".5 mg daily"),  # 0.5 is not 10.5
    ("The price is .50 EUR each", "The price is 50 EUR each"),  # .50 is not 50
    ("The price is .50 EUR each", "50 EUR each"),
    ("The price is -.50 EUR each", "The price is .50 EUR each"),  # nor is -.50 .50
    ("The price is -.50 EUR each", ".50 EUR each"),
    ("The price is \u2013.50 EUR each", "The price is .50 EUR each"),
])
def test_a_leading_decimal_point_is_part_of_its_number(text, quote):
    assert not found(text, quote)
    assert found(text, text)


@pytest.mark.parametrize("text, quote", [
    ("The price is .50 EUR each", "The price is .50 EUR each"),
    ("The price is .50 EUR each", "The price is: .50 EUR each"),
    ("version v.2 released today", "2 released today"),  # after a word the dot is punctuation
    ("Done. 50 items were shipped", "50 items were shipped"),
    ("Done.50 items were shipped", "Done 50 items were shipped"),
])
def test_a_dot_that_starts_no_number_is_still_punctuation(text, quote):
    assert found(text, quote)


@pytest.mark.parametrize("text, quote", [
    ("You get a 50% discount on LX2084.", "You get a 50 discount on LX2084."),  # 50 % is not 50
    ("You get a 50\uff05 discount on LX2084.", "You get a 50 discount on LX2084."),
    ("Fees are 2\u2030 of LX2084's fare.", "Fees are 2 of LX2084"),
    ("You get a 50% discount on LX2084.", "You get a 50"),  # the sign cut off at the end
])
def test_a_percent_sign_is_part_of_its_number(text, quote):
    assert not found(text, quote)
    assert found(text, text)


def test_a_percent_sign_quoted_loosely_still_matches():
    assert found("You get a 50% discount on LX2084.", "You get: a 50% discount on LX2084")
