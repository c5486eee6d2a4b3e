"""A negation in Markdown emphasis or code (``**not**``, ``*never*``, ``_not_``,
```not```, or the quoted words emphasised after it) is still a negation: a reader of
the rendered text reads "not confirmed", so a grader's quote that starts after it
leaves the negation out and is not found."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("text", [
    "The booking was **not** confirmed for LX2084.",
    "The booking was *never* confirmed for LX2084.",
    "The booking was _not_ confirmed for LX2084.",
    "The booking was __not__ confirmed for LX2084.",
    "The booking was `not` confirmed for LX2084.",
    "The booking **isn't** confirmed for LX2084.",
    "The booking was not **confirmed for LX2084**.",
    "The booking was not *confirmed* for LX2084.",
    "The booking was **not confirmed** for LX2084.",
])
def test_a_quote_after_an_emphasised_negation_is_not_found(text):
    assert not found(text, "confirmed for LX2084")
    assert not found(text, "The booking ... confirmed for LX2084")


@pytest.mark.parametrize("text, quote", [
    ("The booking was **not** confirmed for LX2084.", "**not** confirmed for LX2084"),  # the negation quoted
    ("No, **the booking is confirmed** for LX2084.", "the booking is confirmed for LX2084"),  # a comma between
    ("Status: **confirmed** for LX2084.", "confirmed for LX2084"),
    ("The **booking** confirmed for LX2084.", "confirmed for LX2084"),
])
def test_emphasis_without_a_negation_before_it_is_found(text, quote):
    assert found(text, quote)
