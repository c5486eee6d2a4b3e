"""A grader's quote cannot leave out a negation that bears on it: a quote (or a part of
an elided one) that starts right after "not", "never", "isn't" ... is not found, as a
number's sign is part of the number."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("text, quote", [
    ("The booking was not confirmed for LX2084.", "confirmed for LX2084"),
    ("The booking was never confirmed for LX2084.", "confirmed for LX2084"),
    ("The booking isn't confirmed for LX2084.", "confirmed for LX2084"),
    ("The booking isn\u2019t confirmed for LX2084.", "confirmed for LX2084"),
    ("The booking was NOT\nconfirmed for LX2084.", "confirmed for LX2084"),
    ("The booking was not confirmed for LX2084.", "The booking was ... confirmed for LX2084"),
    ("We could not book LX2084: the card was declined.", "book LX2084: the card"),
    ("There was no booking for flight LX2084 today.", "booking for flight LX2084"),
])
def test_a_quote_that_drops_the_negation_before_it_is_not_found(text, quote):
    assert not found(text, quote)
    assert found(text, text)


@pytest.mark.parametrize("text, quote", [
    ("No, the booking is confirmed for LX2084.", "the booking is confirmed for LX2084"),  # a comma between
    ("The booking was not cancelled: LX2084 is confirmed.", "LX2084 is confirmed"),
    ("The booking was not confirmed for LX2084.", "not confirmed for LX2084"),  # the negation quoted
    ("Annotated booking confirmed for LX2084.", "booking confirmed for LX2084"),  # "not" inside a word
])
def test_a_quote_that_keeps_or_does_not_follow_a_negation_is_found(text, quote):
    assert found(text, quote)


@pytest.mark.parametrize("text, quote", [
    ("The booking isn't confirmed for LX2084.", "t confirmed for LX2084"),  # "isn't" cut after its apostrophe
    ("The booking isn\u2019t confirmed for LX2084.", "t confirmed for LX2084"),
    ("We can't confirm LX2084 today.", "t confirm LX2084 today"),
    ("The booking for LX2084 isn't confirmed.", "The booking for LX2084 isn"),  # cut before it
])
def test_an_apostrophe_between_letters_does_not_end_a_word(text, quote):
    assert not found(text, quote)


@pytest.mark.parametrize("text, quote", [
    ("The flag 'confirmed for LX2084' is set.", "confirmed for LX2084"),  # a quotation mark, not inside a word
    ("The passengers' names for LX2084 are listed.", "names for LX2084 are listed"),
])
def test_an_apostrophe_that_quotes_still_bounds_a_word(text, quote):
    assert found(text, quote)
