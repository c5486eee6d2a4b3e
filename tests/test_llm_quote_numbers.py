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
