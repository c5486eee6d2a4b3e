"""The rules that refuse a quote saying less than it seems where it stands, for ``quotes``.

A quote, and each part of an elided one, is not found where it says less than it seems
(``says_less``): where it ends inside a question whose "?" it leaves out ("all 12 tests
passed" from "Were all 12 tests passed?"), lies in a condition ("the build succeeds" from
"if the build succeeds, deploy"), in struck-through text ("~~Tests pass~~"), or after a
count of part of what it names ("12 tests passed" from "0 of 12 tests passed"). Where a
negation or a mark undoes its sense is ``quote_rules``' part.
"""

from __future__ import annotations

import bisect
import functools
import re

from referee.llm_adapter.clusters import NUMBER_GLUE
from referee.llm_adapter.quote_rules import WORD_APOSTROPHES, after_negation, as_read, enclosing, word_before

# Words that make what follows them a condition, not a fact: "the build succeeds" quoted
# from "if the build succeeds, deploy" says less than it seems. "When" is left out: "it
# deployed when the build succeeded" states both.
CONDITIONS = frozenset("if iff unless whether provided providing assuming suppose supposing lest".split())
# Any of them as a word, for a quick look before reading a clause word by word.
CONDITION_WORD = re.compile(r"(?<![^\W\d_])(?:" + "|".join(sorted(CONDITIONS)) + r")(?![^\W\d_])", re.IGNORECASE)
# Opening a sentence, "whether" starts what it is about, not a condition: "Whether that is
# wrong depends on your intent, so I did not guess" states its last clause.
OPENING_CONDITIONS = CONDITIONS - {"whether"}
# Words that count part of a whole: "12 tests passed" quoted from "0 of 12 tests passed" or
# "tests passed" from "none of the tests passed" leaves out how many.
PART_COUNTS = frozenset("""none zero no few some several half most one two three four five six seven eight
nine ten eleven twelve neither""".split())
NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten eleven twelve".split())
DETERMINERS = frozenset("the these those its their our my your his her".split())
QUESTION_MARKS = frozenset("?\uff1f\u061f")
SENTENCE_ENDS = frozenset(".!?\u3002\uff01\uff1f\u061f")
CLAUSE_ENDS = SENTENCE_ENDS | frozenset(",;:\u3001\uff0c\uff1b\uff1a")
REACH = 400  # characters read around a quote for its sentence: a sentence, not a document
# Struck-through text on one line: Markdown's ~~...~~ and HTML's <del>, <s>, <strike>.
STRUCK = re.compile(r"~~[^\n]{1,2000}?~~|<(del|s|strike)>[^\n]{0,2000}?</\1>", re.IGNORECASE)


def says_less(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` says less than it seems where it stands: its sense
    undone by a negation or a mark (``after_negation``), asked rather than said (it ends
    in a question whose "?" it leaves out), a condition (it starts after an "if" of its
    clause, or in a sentence that opens with one), struck through (``~~done~~``,
    ``<del>``), or a count cut off in front ("12 tests passed" from "0 of 12 tests
    passed")."""
    return (after_negation(text, start) or _asked(text, end) or _conditional(text, start, end)
            or _struck(text, start, end) or _part_counted(text, start))


def _asked(text: str, end: int) -> bool:
    """Whether the clause ``text[:end]`` ends in goes on, on its line, to a question
    mark: "all 12 tests passed" quoted from "Were all 12 tests passed?". A quote that
    ends its clause itself ("rule?", "logs,") leaves nothing out; a mark followed by a
    letter or digit ends nothing (a URL's "?q=", "v2.4"); a quotation mark, a backtick
    or a bracket stops the search, since the clause's own end lies past what it
    encloses, or the text there is another string ("deployed" of ``{"status":
    "deployed", "ask": "Proceed?"}``)."""
    if not any(mark in text[end:end + REACH] for mark in QUESTION_MARKS):
        return False  # no question near: the walk below, a character at a time, is for when one is
    last = end - 1
    while last >= 0 and text[last] in " \t":
        last -= 1
    if last >= 0 and text[last] in CLAUSE_ENDS:
        return False
    i = end
    limit = min(len(text), end + REACH)
    while i < limit and text[i] != "\n" and not _stops(text, i):
        ch = text[i]
        if ch in CLAUSE_ENDS and (i + 1 == len(text) or not text[i + 1].isalnum()):
            return ch in QUESTION_MARKS
        i += 1
    return False


def _stops(text: str, i: int) -> bool:
    """A quotation mark, backtick or bracket; not the apostrophe inside a word ("team's")."""
    ch = text[i]
    if ch in WORD_APOSTROPHES and 0 < i < len(text) - 1 and text[i - 1].isalpha() and text[i + 1].isalpha():
        return False
    return ch == "`" or enclosing(ch)


def _conditional(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies in a condition: an "if" (``CONDITIONS``) earlier
    in its clause ("deploy if the build succeeds"), or opening its sentence ("If it
    slips past Wednesday we lose the sprint", "If the build succeeds, deploy") while the
    quote's own first clause holds none ("..., and whether the gate is answered" shows
    its condition)."""
    window = text[max(0, start - REACH):start]
    low = window.lower()
    if window.isascii() and not (any(word in low for word in CONDITIONS) and CONDITION_WORD.search(low)):
        return False  # no condition near: the walk below, a character at a time, is for when one is
    clause = _back_to(text, start, CLAUSE_ENDS)
    if any(word in CONDITIONS for word in _words(text[clause:start])):
        return True
    opening = _words(text[_back_to(text, start, SENTENCE_ENDS | {":", ";"}):start])[:1]
    if not opening or opening[0] not in OPENING_CONDITIONS:
        return False
    own = re.split(r"[,;:.!?]", text[start:end], maxsplit=1)[0]
    return not any(word in CONDITIONS for word in _words(own))


def _back_to(text: str, start: int, ends: frozenset[str]) -> int:
    """Where the clause or sentence holding ``text[start]`` begins, read back to one of
    ``ends`` (not one inside a number or a name, "2.0", "SKILL.md:81"), a line end, or
    ``REACH`` characters."""
    i = start - 1
    floor = max(0, start - REACH)
    while i >= floor and text[i] != "\n":
        if text[i] in ends and not text[i + 1:i + 2].isalnum():
            return i + 1
        i -= 1
    return i + 1


def _words(span: str) -> list[str]:
    return [as_read(w) for w in re.findall(r"[^\W\d_]+", span)]


def _struck(text: str, start: int, end: int) -> bool:
    """Whether the first or last character of ``text[start:end]`` lies in text struck
    through on its line, marks included (``~~done~~``, ``<del>done</del>``): struck
    words no longer stand, and a quote of them, marks or not, reads as if they did."""
    spans = _struck_spans(text)
    for at in (start, end - 1):
        k = bisect.bisect_right(spans, (at, len(text))) - 1
        if k >= 0 and spans[k][0] <= at < spans[k][1]:
            return True
    return False


@functools.lru_cache(maxsize=16)  # a run's segments are searched once per quote
def _struck_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where ``text`` is struck through, in order: read once per text, so that a quote
    found many times on one long line costs no more than a line's read."""
    return tuple((m.start(), m.end()) for m in STRUCK.finditer(text))


def _part_counted(text: str, start: int) -> bool:
    """Whether ``text[start:]`` follows a count of part of it ("0 of", "3 out of the",
    "none of the", "0/"), or the number counted after one: "12 tests passed" or
    "tests passed" from "0 of 12 tests passed" or "0/12 tests passed", "reporting
    endpoints are migrated" from "Two of the five reporting endpoints are migrated". A
    count of all ("12/12", "12 of 12") leaves nothing out."""
    counted = _past_number(text, start)
    whole = _digits_from(text, counted)
    i = counted - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i > 0 and text[i] in "/\u2044\u2215" and whole:
        return _less(_digits_before(text, i), whole)
    word, at = word_before(text, counted)
    if word in DETERMINERS:
        word, at = word_before(text, at)
    if word != "of":
        return False
    word, before = word_before(text, at)
    if word == "out":
        word, before = word_before(text, before)
    return word in PART_COUNTS or (not word and _less(_digits_before(text, before), whole))


def _less(part: str, whole: str) -> bool:
    """Whether a count ``part`` (digits, "" for none) of ``whole`` (digits, "" when
    written in words) may be less than all of it."""
    return bool(part) and (not whole or int(part) != int(whole))


def _digits_from(text: str, i: int) -> str:
    """The digits written from ``text[i]`` on ("" when none)."""
    end = i
    while end < len(text) and text[end].isdecimal():
        end += 1
    return text[i:end]


def _digits_before(text: str, at: int) -> str:
    """The digits written right before ``text[at]``, across spaces ("" when none)."""
    end = at
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    i = end
    while i > 0 and text[i - 1].isdecimal():
        i -= 1
    return text[i:end]


def _past_number(text: str, start: int) -> int:
    """Where a number written right before ``text[start]`` (across spaces) begins, in
    digits ("12") or in words ("five"); ``start`` when there is none."""
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i >= 0 and text[i].isdecimal():
        while i > 0 and (text[i - 1].isdecimal() or text[i - 1] in NUMBER_GLUE):
            i -= 1
        return i
    word, before = word_before(text, start)
    return before if word in NUMBER_WORDS else start
