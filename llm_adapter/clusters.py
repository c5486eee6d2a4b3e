"""What one character of a text is, as a reader sees it, for ``quotes``' loose match:
a letter with the combining marks written after it, a Hangul syllable written as its
jamo, each after NFKC (but a raised or circled digit, which NFKC would make another
number); and the characters that belong to a number or that a reader does not see."""

from __future__ import annotations

import unicodedata


def marks_end(text: str, i: int) -> int:
    """The index after the combining marks that start at ``text[i]`` (``i`` if none),
    and after the vowel and final jamo of a Hangul syllable written decomposed (NFD:
    "한" as U+1112 U+1161 U+11AB, as macOS writes file names and some tools text),
    which NFKC makes the one syllable a quote writes."""
    while i < len(text) and (is_mark(text[i]) or (jamo_tail(text[i]) and i > 0 and hangul(text[i - 1]))):
        i += 1
    return i


def jamo_tail(ch: str) -> bool:
    """A Hangul vowel or final consonant jamo: it joins the syllable before it."""
    return "\u1160" <= ch <= "\u11ff" or "\ud7b0" <= ch <= "\ud7ff"


def hangul(ch: str) -> bool:
    """A Hangul syllable or jamo (conjoining, of any part)."""
    return "\u1100" <= ch <= "\u11ff" or "\ua960" <= ch <= "\ua97f" or "\uac00" <= ch <= "\ud7ff"


def composed(cluster: str) -> str:
    """A character and the combining marks after it, after NFKC (``compatible``'s
    exception kept: a raised or circled digit stays what it is)."""
    base = cluster[0]
    if base.isnumeric() and not base.isdecimal():
        return base + "".join(compatible(mark) for mark in cluster[1:])
    return unicodedata.normalize("NFKC", cluster)


def compatible(ch: str) -> str:
    """``ch`` after NFKC, except a digit that is raised, lowered, circled or a fraction:
    NFKC makes "10²" the number "102", "CO₂" "CO2" and "1½" "11⁄2", another value."""
    if ch.isnumeric() and not ch.isdecimal():
        return ch
    return unicodedata.normalize("NFKC", ch)


def is_mark(ch: str) -> bool:
    """A combining mark (an accent written after its letter, an enclosing circle ...)."""
    return unicodedata.category(ch).startswith("M")


# Between two digits, part of the number: a decimal point or a digit-group mark (a
# no-break, narrow no-break or thin space, an apostrophe as in 1'000, an underscore,
# the Arabic separators). "Refund of 1 000 EUR" does not hold "000 EUR" nor "of 1".
# A plain space stays a separator: "2 300 guests" may well be two numbers.
NUMBER_GLUE = frozenset(".,\u00a0\u202f\u2009'\u2019_\u066b\u066c")
SIGNS = frozenset("-+\u2212")  # and every dash (Unicode's Pd): typesetting writes "–500" for -500


def signlike(ch: str) -> bool:
    """A plus or minus sign, or a dash that may stand for one (en dash, figure dash ...)."""
    return ch in SIGNS or unicodedata.category(ch) == "Pd"


def invisible(ch: str) -> bool:
    """A format character (zero-width space, word joiner, soft hyphen ...): the text
    reads as if it were not there, so it neither ends a word nor starts one."""
    return unicodedata.category(ch) == "Cf"
