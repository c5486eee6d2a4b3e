"""A negation bears on the words after it across the auxiliaries and adverbs that carry
it ("not been confirmed", "not yet confirmed", "no longer valid"): a grader's quote
that starts after them leaves the negation out as surely as one that starts right
after it, and is not found. Any other word, or punctuation, ends the negation's reach."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("text", [
    "The booking has not been confirmed for LX2084.",
    "The booking could not be confirmed for LX2084.",
    "The booking was not yet confirmed for LX2084.",
    "The booking was not fully confirmed for LX2084.",
    "The booking has never been confirmed for LX2084.",
    "The booking hasn't been fully confirmed for LX2084.",
    "The booking is no longer confirmed for LX2084.",
    "The booking was **not** yet confirmed for LX2084.",
])
def test_a_quote_after_a_negation_and_the_words_that_carry_it_is_not_found(text):
    assert not found(text, "confirmed for LX2084")
    assert not found(text, "The booking ... confirmed for LX2084")
    assert found(text, text)


@pytest.mark.parametrize("text", [
    "The refund was not issued, but the booking has been confirmed for LX2084.",  # a comma ends it
    "Not the hotel: the booking has been confirmed for LX2084.",  # a colon ends it
    "We did not cancel and it has been confirmed for LX2084.",  # another word ends it
    "Nothing failed; the booking has been fully confirmed for LX2084.",
])
def test_a_negation_out_of_reach_keeps_the_quote_found(text):
    assert found(text, "confirmed for LX2084")
    assert found(text, "been confirmed for LX2084") or found(text, "been fully confirmed for LX2084")
