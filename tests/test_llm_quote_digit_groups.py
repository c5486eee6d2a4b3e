"""A number written with its digits grouped by another mark than a comma or a point (a
narrow or plain no-break space, a thin space, an apostrophe as in 1'000, an underscore,
the Arabic thousands separator) is one number: a grader's quote cannot start or end
inside it, so "000 EUR approved" is not found in "Refund of 1 000 EUR approved", as
"68.00" is not found in "168.00"."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("glue", ["\u202f", "\u00a0", "\u2009", "'", "\u2019", "_", "\u066c"])
def test_a_quote_cannot_start_or_end_inside_a_grouped_number(glue):
    text = f"Refund of 1{glue}000 EUR approved"
    assert not found(text, "000 EUR approved")
    assert not found(text, "Refund of 1")
    assert found(text, text)
    assert found(text, f"1{glue}000 EUR approved")


def test_a_space_between_two_numbers_still_parts_them():
    assert found("Rooms 12 and 14: 2 300 guests", "300 guests")
    assert found("Flight LX2084 seat 14_A confirmed", "LX2084 seat 14")
