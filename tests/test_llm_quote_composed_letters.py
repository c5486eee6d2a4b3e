"""A grader's quote is found, loosely, whether its letters are written precomposed
(NFC, "ü" as U+00FC, as models write) or as a letter and a combining mark (NFD, "u" +
U+0308, as macOS and some editors write files): both read the same, and NFKC, which
the loose match applies, makes them one. So for Korean written as jamo (NFD) against
syllables (NFC), either way round."""

from __future__ import annotations

import unicodedata

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate

NFC = "Booked SWISS LX2084 for Ana M\u00fcller, reference ZR4P9D."
NFD = "Booked SWISS LX2084 for Ana Mu\u0308ller, reference ZR4P9D."


def match(text: str, quote: str):
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),))


@pytest.mark.parametrize("text, quote", [
    (NFD, "for Ana M\u00fcller, reference ZR4P9D"),  # a model's quote of a file written NFD
    (NFC, "for Ana Mu\u0308ller, reference ZR4P9D"),
    (NFD, "Ana M\u00fcller"),  # the letter with its mark ends the quote
    ("Reservation for Jos\u0065\u0301 confirmed.", "Reservation for Jos\u00e9 confirmed"),
])
def test_a_quote_in_the_other_form_is_found_loosely(text, quote):
    # was: "its quote is not in response", a FAIL for a quote that is there
    found = match(text, quote)
    assert found is not None and found.loose
    assert found.found in text  # the text as it stands in the file, marks included


@pytest.mark.parametrize("text, quote", [
    (NFD, "Booked SWISS LX2084 for Ana Mu"),  # "Mu" is not "Mü"
    (NFD, "Booked SWISS LX2084 for Ana Muller"),  # nor is "Muller" "Müller"
    (NFC, "Booked SWISS LX2084 for Ana Mu"),
    ("Flight x\u0308 LX2084 booked.", "Flight x"),  # a mark that composes with nothing still belongs to its letter
])
def test_a_letter_without_its_mark_is_not_found(text, quote):
    assert match(text, quote) is None


KO_NFC = "예약이 완료되었습니다. 예약 번호는 KR2291입니다.\n"
KO_NFD = unicodedata.normalize("NFD", KO_NFC)  # each syllable as its jamo: 한 is U+1112 U+1161 U+11AB


@pytest.mark.parametrize("text, quote", [
    (KO_NFC, unicodedata.normalize("NFD", "예약이 완료되었습니다")),  # a quote written decomposed
    (KO_NFD, "예약이 완료되었습니다"),  # a file written decomposed, quoted composed
    (KO_NFD, "예약 번호는 KR2291입니다"),
])
def test_a_korean_quote_in_the_other_form_is_found(text, quote):
    # was: "its quote is not in response", a FAIL for a quote that is there
    found = match(text, quote)
    assert found is not None
    assert found.found in text  # the text as it stands in the file, jamo and all
    assert unicodedata.normalize("NFC", found.found) == unicodedata.normalize("NFC", quote)


@pytest.mark.parametrize("text, quote", [
    (KO_NFD, "예약이 완료되었습니"[:-1] + "\u1102"),  # 니 without its vowel
    (KO_NFD, "예약이 완료되었습니다"[:-1] + "\u1103"),  # 다 without its vowel
    (KO_NFC, unicodedata.normalize("NFD", "예약 번호")[:-1]),  # 호 without its vowel
])
def test_a_syllable_without_its_vowel_is_not_found(text, quote):
    assert match(text, quote) is None
