"""Markdown emphasis inside a word does not end the word: "**un**confirmed" reads
"unconfirmed", so a grader's quote "confirmed for LX2084" is not found in it, as it
is not in "unconfirmed". Emphasis around a whole word still bounds it."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("text, quote", [
    ("The booking is **un**confirmed for LX2084.", "confirmed for LX2084"),
    ("The booking is *un*confirmed for LX2084.", "confirmed for LX2084"),
    ("The booking for LX20**84** is confirmed.", "booking for LX20"),
])
def test_a_quote_that_starts_or_ends_inside_an_emphasised_word_is_not_found(text, quote):
    assert not found(text, quote)


@pytest.mark.parametrize("text, quote", [
    ("The booking is **confirmed** for LX2084.", "confirmed for LX2084"),
    ("The booking is confirmed for **LX2084**.", "The booking is confirmed for"),
    ("* confirmed for LX2084", "confirmed for LX2084"),
    ("Status:**confirmed** for LX2084", "confirmed for LX2084"),
])
def test_emphasis_around_whole_words_still_bounds_them(text, quote):
    assert found(text, quote)
