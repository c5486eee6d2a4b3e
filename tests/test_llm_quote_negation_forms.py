"""A negation reads as one whatever its letters: full-width (ｎｏｔ), mathematical bold
(𝐧𝐨𝐭), broken by a zero-width space, or with an apostrophe of another form (isn＇t,
isnʼt). A grader's quote that starts right after one leaves it out and is not found,
as after a plain "not"."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("negation", [
    "was \uff4e\uff4f\uff54",  # full-width "not"
    "was \U0001d427\U0001d428\U0001d42d",  # mathematical bold "not"
    "was n\u200bot",  # a zero-width space inside the word
    "was \uff2e\uff25\uff36\uff25\uff32",  # full-width "NEVER"
    "isn\uff07t",  # full-width apostrophe
    "isn\u02bct",  # modifier letter apostrophe
])
def test_a_quote_after_a_negation_in_other_letters_is_not_found(negation):
    text = f"The booking {negation} confirmed for LX2084."
    assert not found(text, "confirmed for LX2084")
    assert not found(text, "The booking ... confirmed for LX2084")
    assert found(text, text)


@pytest.mark.parametrize("text", [
    "The booking was \uff4e\uff4f\uff54ed as confirmed for LX2084.",  # "noted": no negation
    "The booking was \uff4b\uff4e\uff4f\uff54 confirmed for LX2084.",  # "knot"
])
def test_other_words_in_other_letters_are_no_negation(text):
    assert found(text, "confirmed for LX2084")
