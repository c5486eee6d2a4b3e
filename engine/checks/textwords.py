"""The ``words(x)`` and ``numbers(x)`` of a text, each a value placed at the line it
starts on (``textparts`` places the other parts of a text)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Callable, Iterator, TypeVar

import regex

from referee.engine.budget import spend
from referee.engine.checks.textparts import listed, need_text, placed_at
from referee.engine.text import line_breaks
from referee.engine.values import EvalError, Result, Val, render

# A word: letters or digits, joined by an apostrophe, a hyphen, a point or a comma
# between two of them ("don't", "state-of-the-art", "e.g", "1,250.5"). Its letters
# are the rules' \w (the regex module's, docs/limits.md), which holds the combining
# marks written on a letter: re's \w has none, and cut हिन्दी into ह, न and द, and
# an accent written as e + U+0301 off its word. Invisible format characters between
# letters (a zero-width space, a soft hyphen) stay in the word a reader sees as one:
# "ve\u200bry" is one word, which ``==`` and ``in`` never take for "very" nor for another.
_WORD = regex.compile(r"[^\W_]+(?:(?:\p{Cf}*['’.,-]\p{Cf}*|\p{Cf}+)[^\W_]+)*")
# An invisible format character inside a number as written ("1\u200b250", "-\u200b3"):
# a reader sees one number, the text as written holds two, or none with its sign.
_NUMBER_CUT = regex.compile(r"(?<=\d)\p{Cf}+(?=[.,'’_\u066b\u066c]?\d)"
                            r"|(?<=\d[.,'’_\u066b\u066c]|[-+\u2212.\u066b])\p{Cf}+(?=\d)")
# A number as people write it: a sign where a sign can stand (not after a letter or a
# digit: 2019-2020 is two numbers), digits grouped by threes with one separator
# (1,250 or 1’250 or 1 250 with a no-break or thin space) or by underscores as code
# writes them (1_000), then a decimal point (. or the Arabic ٫); or a point and
# digits alone (.5). A digit right after a letter (B2B, mp3) or a point (the 3 of
# 1.2.3) starts none. \d is every script's decimal digits (١٢, １２). A hex, octal
# or binary literal (0x1F, 0o17, 0b101) is the number it writes: read as decimals it
# was a 0 (the x a letter), a small number where a large one was written; a 0 with
# a letter or digit after its x, o or b that is not such a literal (0xZ) is none.
_NUMBER = re.compile(r"""
    (?<![\w.\u066b])
    (?P<sign>[-+\u2212](?=[.\u066b]?\d))?
    (?:
        (?P<radix>0[xX](?:_?[0-9A-Fa-f])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+)(?!\w)
    |
        (?!0[xXoObB][^\W_])(?=[.\u066b]?\d)
        (?P<int>\d{1,3}(?P<sep>[,'’\u00a0\u202f\u2009\u066c])\d{3}(?:(?P=sep)\d{3})*|\d+(?:_\d+)*)?
        (?P<frac>[.\u066b]\d+)?
        (?P<exp>[eE][-+\u2212]?\d+(?!\w))?  # 1.5e3 is 1500, not 1.5 (the "e3" a word)
        (?!\d)
    )
""", re.VERBOSE)

# A number whose reading depends on where its writer learned to write numbers, which
# _NUMBER reads one way (a point is decimal, a comma groups thousands by threes): a
# point grouping thousands before a decimal comma (1.250,50), points grouping
# thousands twice or more (1.250.000), a lakh grouped by twos (1,00,000), or a decimal
# comma alone (12,50 and 1,5; 52,5200), none of them in a list ("1,5,7"); or a date
# written with points (12.05.2024), which _NUMBER reads as 12.05 alone, its year lost.
_LOCAL_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,}|\d{1,2}(?:,\d{2})+,\d{3}"
                           r"|\d+,(?:\d{1,2}|\d{4,})|\d{1,2}\.\d{1,2}\.\d{4})(?![\w,.]?\d)")


def words(arg: Val) -> Result:
    text = need_text(arg, "words")
    _charge(_WORD, text, "words")
    items = [Val(found.group(), placed_at(arg, f"{arg.label} word {n}", line))
             for n, (found, line) in enumerate(_with_lines(text, _WORD.finditer(text)), start=1)]
    return listed(arg, "words", items)


def numbers(arg: Val) -> Result:
    """Every number written in the text, as an exact decimal: ``1,250.50`` is
    1250.50, ``−3`` is -3, ``12%`` is 12, ``1.5e3`` is 1500, ``.5`` is 0.5, ``0x1F``
    is 31; ``2019-2020`` is 2019 and 2020 (``_NUMBER``)."""
    text = need_text(arg, "numbers")
    _not_cut(arg, text)
    _not_local(arg, text)
    _charge(_NUMBER, text, "numbers")
    items = [Val(_value(found), placed_at(arg, f"{arg.label} {render(found.group())}", line))
             for found, line in _with_lines(text, _NUMBER.finditer(text))]
    return listed(arg, "numbers", items)


def _not_cut(arg: Val, text: str) -> None:
    """An ERROR when an invisible format character stands inside a number of ``text``:
    which numbers it writes, as a reader sees them or as written, cannot be told."""
    cut = None if text.isascii() else _NUMBER_CUT.search(text)
    if cut is None:
        return
    place = placed_at(arg, arg.label, line_breaks(text, 0, cut.start())).where()
    raise EvalError(f"numbers() of {arg.label}: an invisible character (U+{ord(cut.group()[0]):04X}, at {place}) "
                    f"stands inside the number {render(text[max(0, cut.start() - 12):cut.end() + 12])}: a reader "
                    "sees one number where the text as written holds two, so which it writes cannot be decided")


def _not_local(arg: Val, text: str) -> None:
    """An ERROR when ``text`` writes a number that some conventions read otherwise
    (``_LOCAL_NUMBER``): ``1.250,50 EUR`` was 1.250 and 50, and a check that no amount
    is over 100, or that 1250.50 is not among the numbers, passed on the amount a German
    reader sees. Which number it writes cannot be told."""
    local = _LOCAL_NUMBER.search(text) if "," in text or "." in text else None
    if local is None:
        return
    place = placed_at(arg, arg.label, line_breaks(text, 0, local.start())).where()
    raise EvalError(f"numbers() of {arg.label}: {render(local.group())} (at {place}) is written as some languages "
                    "write numbers and dates (a decimal comma; points, or pairs of digits, grouping it; a date "
                    "with points), which numbers() reads otherwise, with a decimal point: which numbers it writes "
                    "cannot be decided")


def _charge(pattern: re.Pattern | regex.Pattern, text: str, what: str) -> None:
    """A step of the budget for each piece, counted before any is made: a text of a
    million words is an ERROR that names the budget, never a million values held."""
    count = sum(1 for _ in pattern.finditer(text))
    spend(count, f"taking {count:,} {what} of a text")


_Found = TypeVar("_Found", re.Match, regex.Match)  # a match of either module, given back as it is


def _with_lines(text: str, found: Iterator[_Found]) -> Iterator[tuple[_Found, int]]:
    """Each match with the line it starts on (0-based), counted as the matches go, so
    a long text is read once, not once per match."""
    line, at = 0, 0
    for match in found:
        line += line_breaks(text, at, match.start())
        at = match.start()
        yield match, line


# The most digits of a hex, octal or binary number read: turning one into a decimal
# takes time that grows with the square of its length (a second for 300,000 hex
# digits), and a verdict must not wait on the machine's speed.
_RADIX_DIGITS = 1000


def _value(found: re.Match) -> Decimal:
    sign = "-" if found.group("sign") in ("-", "\u2212") else ""
    if found.group("radix"):
        return _radix_value(sign, found.group("radix"))
    digits = (found.group("int") or "0").replace("_", "")
    if found.group("sep"):
        digits = digits.replace(found.group("sep"), "")
    fraction = (found.group("frac") or "").replace("\u066b", ".")
    exponent = (found.group("exp") or "").replace("\u2212", "-")
    return Decimal(sign + digits + fraction + exponent)


def _radix_value(sign: str, literal: str) -> Decimal:
    """A hex, octal or binary literal's value (int() reads its prefix and underscores);
    an ERROR when it is too long to read (``_RADIX_DIGITS``): left out, a large
    number would pass a check that no number is over a limit."""
    digits = len(literal) - 2 - literal.count("_")
    if digits > _RADIX_DIGITS:
        raise EvalError(f"numbers() reads a hex, octal or binary number of at most {_RADIX_DIGITS:,} digits; "
                        f"the text writes one of {digits:,} ({literal[:12]}...)")
    return Decimal(int(sign + literal, 0))


FUNCTIONS: dict[str, Callable[..., Result]] = {"words": words, "numbers": numbers}
