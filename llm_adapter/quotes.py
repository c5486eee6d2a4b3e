"""Find a grader's quote in the run, or show that it is not there.

Two levels, both deterministic and linear in the size of the text:

- ``exact``: equal after collapsing runs of whitespace (line ends, indentation).
- ``loose``: equal after NFKC (full-width forms, ligatures, a letter and its combining
  marks as one letter: "u" + U+0308 is "ü", and a Hangul syllable's jamo as the
  syllable; never for a raised, lowered or circled
  digit, which NFKC would make a plain one) and after treating every
  run of whitespace and punctuation as one separator, so curly versus straight
  quotes, full-width commas or a reflowed JSON object still match. Letters, digits
  and symbols must all be the same ("docStatus 20" never matches "docStatus 10"),
  a word boundary stays a boundary ("the rapist" is not "therapist"), and between
  two digits the separator must be the very same characters: "168.00", "16800",
  "168 00" and "168,00" are four different things, and a minus sign is part of its
  number, and so is a dash right before one: "-500" and "–500" are not "500", a
  leading decimal point: ".50" is not "50", and a percent sign after it: "50%" is not
  "50". A loose match is reported as such.

Both levels match whole characters, whole words and whole numbers only: a quote
cannot start or end inside what one character folds to ("20 k" is not in "20 ㎏"), nor
inside a word, so "possible" is not found in "impossible" nor "68.00" in
"168.00" (a number continues across a decimal point and after a sign), and an
invisible character (a zero-width space, a soft hyphen) does not end a word. Scripts
written without spaces (Han, kana) have no such boundary.

A quote, and each part of an elided one, is not found where the text around it undoes
its sense or says less than it seems: after a negation or a mark of not done, inside a
question, a condition or struck-through text, after a count of part, or ending at a
field's name with its value left out (``quote_rules``, ``quote_sense``).

A quote must end within the part of its segment the grader was shown
(``Segment.shown``): a verdict rests on what the grader could read.

A quote may elide text with "..." or "…": its parts must then occur in order within
one segment. Nothing else is tolerated; fuzzy edit distance would let a changed
digit through, and a changed digit is exactly what a fabricated quote looks like.

In the transcript's sources (tool_calls, agent_notes, harness), heading lines name a block
and prove nothing about it: the lines of a quote that are headings are set aside,
and the rest is never matched inside a heading. A quote found only in a heading is
reported as such (``Match.heading``), and verify counts it as no quote.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from referee.dsl.frozen import frozen
from referee.llm_adapter import substance
from referee.llm_adapter.clusters import NUMBER_GLUE, compatible, composed, invisible, is_mark, marks_end, signlike
from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quote_rules import ends_at_a_key
from referee.llm_adapter.quote_sense import says_less

# A quote's parts are what lies between its ellipses, each stripped of the blanks around
# it. (Blanks taken into the pattern were read again from each one: a time growing with
# the square of a long run of them.)
ELLIPSIS = re.compile(r"\.\.\.|…")
MIN_PART = 8  # each part of an elided quote must be long enough to say something itself
HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)", re.MULTILINE)  # MULTILINE: ^ at any line start
HEADED_SOURCES = frozenset({"tool_calls", "agent_notes", "harness"})
BARRIER = "\x00"  # stands for a masked heading line; no needle contains it
PERCENT = frozenset("%\u2030\u2031\u066a\ufe6a\uff05")  # after a digit, part of the number: 50% is not 50
APOSTROPHES = frozenset("'\u2019")  # between two letters, part of the word: "isn't", "O'Brien"


@frozen
class Match:
    segment: Segment
    line: int  # the file line where the quote starts
    found: str  # the source text that matched, as written
    loose: bool
    heading: bool = False  # found only inside a heading line of the transcript
    field_name: bool = False  # found only ending at a field's name, its value left out


def _separator(ch: str) -> bool:
    """Whitespace and punctuation, except the underscore of identifiers."""
    return ch.isspace() or (ch != "_" and unicodedata.category(ch).startswith("P"))


@functools.lru_cache(maxsize=16)  # a run's segments are searched once per quote
def _fold(text: str, loose: bool, mask: bool = False) -> tuple[str, list[int]]:
    """Normalise ``text``; return it with, for each kept character, its index in ``text``.

    ``mask`` replaces each heading line by a ``BARRIER``."""
    out: list[str] = []
    index: list[int] = []
    pending: list[tuple[str, int]] = []  # the separator run since the last kept character
    last = ""  # the last kept character
    line_start = True
    skip_line = False
    joined = 0  # loose: the end of the combining marks read with the character before them
    for i, ch in enumerate(text):
        if i < joined:
            continue
        if line_start and mask and HEADING.match(text, i):
            skip_line = True
        line_start = ch == "\n"
        if skip_line:
            if ch == "\n":
                skip_line = False
                out.append(BARRIER)
                index.append(i)
                pending, last = [], BARRIER
            continue
        pieces = compatible(ch) if loose else ch
        if loose and ch != "\n":
            joined = marks_end(text, i + 1)
            if joined > i + 1:  # "u" + U+0308 reads "ü": NFKC makes them one, as the quote may write it
                pieces = composed(text[i:joined])
        for piece in pieces:
            if (_separator(piece) and not _sign(text, i, piece) and not _percent(text, i, piece)
                    if loose else piece.isspace()):
                pending.append((piece, i))
                continue
            if pending and out:
                run = " "
                if loose and last.isdigit() and piece.isdigit():
                    # between digits the separator is part of the number: kept as written
                    run = re.sub(" +", " ", "".join(" " if p.isspace() else p for p, _ in pending))
                out.extend(run)
                index.extend([pending[0][1]] * len(run))
            pending = []
            out.append(piece)
            index.append(i)
            last = piece
    if skip_line:
        out.append(BARRIER)
        index.append(len(text) - 1)
    return "".join(out), index



def _sign(text: str, i: int, piece: str) -> bool:
    """Whether ``text[i]`` (read as ``piece``) starts the number after it: a minus sign
    ("-500", "–500", "-.5") or a leading decimal point (".50"), where no word or number
    comes before (the hyphen of "LX-2084" or "2026-05" and the dot of "v.2" are
    punctuation). Part of the number, never a separator, since "balance 500" and
    "balance -500", or "50" and ".50", say different things."""
    if i > 0 and text[i - 1].isalnum():
        return False
    after = text[i + 1:i + 3]
    if piece == ".":
        return after[:1].isdigit()
    return signlike(piece) and (after[:1].isdigit() or (after[:1] == "." and after[1:].isdigit()))


def _percent(text: str, i: int, piece: str) -> bool:
    """Whether ``text[i]`` is a percent (or per mille) sign right after a digit: part of
    the number, never a separator, since "a 50% discount" and "a 50 discount" differ."""
    return piece in PERCENT and i > 0 and text[i - 1].isdigit()


def _no_space_script(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "IDEOGRAPHIC"))


def _wordy(ch: str) -> bool:
    # "_" joins the parts of an identifier, but each part is a word: "saveExpenseDoc"
    # is a whole word of "expense-mcp_saveExpenseDoc".
    return ch.isalnum() and not _no_space_script(ch)



def _visible(text: str, i: int, step: int) -> int:
    """The first index from ``i`` on, going by ``step``, that holds no invisible
    character and no ``*`` (Markdown emphasis inside a word, "**un**confirmed", which
    reads "unconfirmed"; only ``*`` emphasises inside one); -1 or ``len(text)`` when
    there is none."""
    while 0 <= i < len(text) and (invisible(text[i]) or text[i] == "*"):
        i += step
    return i


def _apostrophe_inside(text: str, i: int) -> bool:
    """Whether ``text[i]`` is an apostrophe between two letters ("isn't", "O'Brien"):
    part of the word, so a quote that starts or ends there reads "t" or "isn"."""
    return text[i] in APOSTROPHES and 0 < i < len(text) - 1 and text[i - 1].isalpha() \
        and text[i + 1].isalpha()


def _inside_word(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` begins or ends in the middle of a word or number.
    Invisible characters are looked through, and a combining mark belongs to the
    character it follows: a quote cannot start with one, and one that ends with one
    ends where its letter does ("Mü" written "u" + U+0308 is a part of "Müller")."""
    if start > 0 and is_mark(text[start]):
        return True
    b = _visible(text, start - 1, -1)  # the character before, as the text reads
    if b >= 0 and _wordy(text[start]):
        before = text[b]
        if _wordy(before) or _apostrophe_inside(text, b):
            return True
        if text[start].isdigit() and (signlike(before) or _sign(text, b, before) or (
                before in NUMBER_GLUE and b > 0 and text[b - 1].isdigit())):
            return True
    if b >= 0 and text[start] == "." and text[start + 1:start + 2].isdigit():
        before = text[b]  # ".5" quoted from "10.5" or "-.5": another number
        if before.isdigit() or signlike(before):
            return True
    a = _visible(text, end, 1)  # the character after, as the text reads
    last = end - 1  # the last character, its combining marks set aside
    while last > start and is_mark(text[last]):
        last -= 1
    if a < len(text) and _wordy(text[last]):
        after = text[a]
        if _wordy(after) or is_mark(after) or _apostrophe_inside(text, a):
            return True
        if text[last].isdigit() and (after in PERCENT or (after in NUMBER_GLUE and a + 1 < len(text)
                                                         and text[a + 1].isdigit())):
            return True
    return False



def _aside(segment: Segment, start: int, last: int) -> bool:
    """Whether ``segment.text[start:last + 1]`` touches lines that are no part of what the
    segment stands for (``Segment.aside``: a comment before a record's fields)."""
    if not segment.aside:
        return False
    first = segment.line + segment.text.count("\n", 0, start)
    end = first + segment.text.count("\n", start, last + 1)
    return any(low <= end and first <= high for low, high in segment.aside)



def _parts(quote: str, headed: bool) -> list[str]:
    if headed:
        quote = "\n".join(line for line in quote.split("\n") if not HEADING.match(line))
    quote = quote.replace(BARRIER, "")
    return [part.strip() for part in ELLIPSIS.split(quote) if part.strip()]


def _splits_a_character(index: list[int], start: int, end: int) -> bool:
    """Whether the folded text ``[start:end]`` begins or ends inside what one character
    of the text folds to: NFKC reads "㎏" as "kg" and "№" as "No", and a quote of "20 k"
    or "N" is not in "20 ㎏" or "№". The pieces of one character share its index."""
    return (start > 0 and index[start - 1] == index[start]) or (
        end < len(index) and index[end] == index[end - 1])


def _end(text: str, index: list[int], last: int, loose: bool) -> int:
    """Where in ``text`` a match whose last folded character is ``last`` ends: after the
    combining marks the loose fold read with that character, as the text stands."""
    end = index[last] + 1
    return marks_end(text, end) if loose else end


def _refused(segment: Segment, index: list[int], at: int, needle: str, loose: bool, keys: bool) -> bool:
    """Whether ``needle`` folded at ``at`` is no match of a quote: it splits a character
    or a word, the text around it undoes or narrows its sense (``quote_rules``,
    ``quote_sense``), it ends at a field's name (unless ``keys``), or it touches lines
    set aside."""
    text = segment.text
    start, end = index[at], _end(text, index, at + len(needle) - 1, loose)
    return (_splits_a_character(index, at, at + len(needle)) or _inside_word(text, start, end)
            or says_less(text, start, end) or (not keys and ends_at_a_key(text, start, end))
            or _aside(segment, index[at], index[at + len(needle) - 1]))


def _search(segment: Segment, parts: list[str], loose: bool, mask: bool,
            keys: bool = False) -> Match | None:
    """Where ``parts`` occur in order in ``segment``; a part may end at a field's name
    (``quote_rules.ends_at_a_key``) only when ``keys`` is true."""
    haystack, index = _fold(segment.text, loose, mask)
    text = segment.text
    position = 0
    first: int | None = None
    last = 0
    for part in parts:
        needle, _ = _fold(part, loose)
        if len(needle) < (1 if len(parts) == 1 else MIN_PART):
            return None
        at = haystack.find(needle, position)
        while at >= 0 and _refused(segment, index, at, needle, loose, keys):
            at = haystack.find(needle, at + 1)
        if at < 0:
            return None
        first = at if first is None else first
        last = at + len(needle) - 1
        position = at + len(needle)
    if first is None:  # no parts; callers pass at least one
        return None
    start, end = index[first], _end(text, index, last, loose)
    if segment.shown is not None and end > segment.shown:
        # past what the grader was shown (the leftmost match ends soonest): no verdict
        # rests on text it could not read, not even a word the cut split
        return None
    line = segment.line + text.count("\n", 0, start)
    return Match(segment, line, text[start:end], loose)


def proves_nothing(quote: str, match: Match | None = None) -> bool:
    """Whether ``quote`` counts as no quote: too short or generic (``substance.trivial``),
    or, where ``match`` is where it was found, found only in a heading line or only
    ending at a field's name with its value left out. The one rule for every reader of
    a model's quotes: the grade's grader (``verify``) and ``compare --llm``
    (``holistic``)."""
    return substance.trivial(quote) or (match is not None and (match.heading or match.field_name))


def locate(quote: str, segments: tuple[Segment, ...]) -> Match | None:
    """The first segment (in source order) holding ``quote``: exact first, then loose.

    In a transcript source, headings are masked; a quote found only with them
    unmasked comes back with ``heading=True``; one found only ending at a field's name,
    its value left out (``quote_rules.ends_at_a_key``), with ``field_name=True``."""
    parts_of = {headed: _parts(quote, headed) for headed in (False, True)}
    for loose in (False, True):
        for segment in segments:
            headed = segment.source in HEADED_SOURCES
            parts = parts_of[headed]
            if parts:
                found = _search(segment, parts, loose, mask=headed)
                if found is not None:
                    return found
    for loose in (False, True):
        for segment in segments:
            if segment.source in HEADED_SOURCES:
                parts = parts_of[False]
                found = _search(segment, parts, loose, mask=False) if parts else None
                if found is not None:
                    return Match(found.segment, found.line, found.found, found.loose, heading=True)
    for loose in (False, True):
        for segment in segments:
            parts = parts_of[segment.source in HEADED_SOURCES]
            found = _search(segment, parts, loose, mask=segment.source in HEADED_SOURCES, keys=True) if parts else None
            if found is not None:
                return Match(found.segment, found.line, found.found, found.loose, field_name=True)
    return None
