"""A grader's quote cannot start or end inside one character of the text: NFKC reads
"㎏" as "kg" and "㎨" as "m∕s2", and a quote that takes only part of such a character
("20 k", "9.8 m∕s") says another thing than the text (kilo, metres per second)."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("text, quote", [
    ("The parcel weighs 20 \u338f in total.", "The parcel weighs 20 k"),  # ㎏ is "kg"
    ("The sled accelerates at 9.8 \u33a8 downhill.", "The sled accelerates at 9.8 m\u2215s"),  # ㎨ is "m∕s2"
    ("Invoice \u2116 4711 was paid in full.", "Invoice N"),  # № is "No"
    ("The crate weighs 20 \u338f in total.", "g in total"),  # starts inside ㎏
])
def test_a_quote_of_part_of_one_character_is_not_found(text, quote):
    # was: found loosely, the match widened to the whole character ("20 ㎏")
    assert not found(text, quote)


@pytest.mark.parametrize("text, quote", [
    ("The parcel weighs 20 \u338f in total.", "The parcel weighs 20 kg in total"),
    ("The parcel weighs 20 \u338f in total.", "The parcel weighs 20 \u338f"),
    ("The sled accelerates at 9.8 \u33a8 downhill.", "accelerates at 9.8 m\u2215s2 downhill"),
    ("Send it \u2105 the office.", "Send it c/o the office"),  # ℅ is "c/o"
])
def test_a_quote_of_whole_characters_is_found(text, quote):
    assert found(text, quote)
