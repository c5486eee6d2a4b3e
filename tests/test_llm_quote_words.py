"""A grader's quote matches whole words: an invisible character or a combining mark
does not end a word, since the text reads as if the word went on."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("invisible", ["\u200b", "\u00ad", "\u2060", "\u200d", "\ufeff"])
@pytest.mark.parametrize("text, quote", [
    ("The input was in{}valid for LX2084.", "valid for LX2084"),  # reads "invalid"
    ("Booked flight LX2084{}5 today.", "Booked flight LX2084"),  # reads "LX20845"
    ("The balance: -{}500.00 EUR after all.", "500.00 EUR after all"),  # reads "-500.00"
])
def test_an_invisible_character_does_not_end_a_word(invisible, text, quote):
    text = text.format(invisible)
    assert not found(text, quote)
    assert found(text, text)


@pytest.mark.parametrize("mark", ["\u0301", "\u0338", "\u20e0"])
def test_a_combining_mark_belongs_to_the_letter_before_it(mark):
    text = f"Flight LX2084{mark} was booked."
    assert not found(text, "Flight LX2084")
    assert found(text, text)


def test_a_word_after_a_space_still_starts_a_word():
    assert found("The input was fully\u200b valid for LX2084.", "valid for LX2084")
