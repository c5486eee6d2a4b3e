"""Find a grader's quote in the run, or show that it is not there.

Two levels, both deterministic and linear in the size of the text:

- ``exact``: equal after collapsing runs of whitespace (line ends, indentation).
- ``loose``: equal after also dropping punctuation and applying NFKC, so curly
  versus straight quotes, full-width commas or a reflowed JSON object still match.
  Letters, digits and symbols must all be the same: "docStatus 20" never matches
  "docStatus 10". A loose match is reported as such.

A quote may elide text with "..." or "…": its parts must then occur in order within
one segment. Nothing else is tolerated; fuzzy edit distance would let a changed
digit through, and a changed digit is exactly what a fabricated quote looks like.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from referee.llm_adapter.evidence import Segment

ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")
MIN_PART = 8  # each part of an elided quote must be long enough to say something itself


@dataclass(frozen=True)
class Match:
    segment: Segment
    line: int  # the file line where the quote starts
    found: str  # the source text that matched, as written
    loose: bool


def _keep_loose(ch: str) -> bool:
    return not (ch.isspace() or unicodedata.category(ch).startswith("P"))


def _fold(text: str, loose: bool) -> tuple[str, list[int]]:
    """Normalise ``text`` and return, for each kept character, its index in ``text``."""
    out: list[str] = []
    index: list[int] = []
    pending_space = False
    for i, ch in enumerate(text):
        pieces = unicodedata.normalize("NFKC", ch) if loose else ch
        for piece in pieces:
            if loose:
                if _keep_loose(piece):
                    out.append(piece)
                    index.append(i)
            elif piece.isspace():
                pending_space = bool(out)
            else:
                if pending_space:
                    out.append(" ")
                    index.append(i)
                    pending_space = False
                out.append(piece)
                index.append(i)
    return "".join(out), index


def _parts(quote: str) -> list[str]:
    return [p for p in ELLIPSIS.split(quote.strip()) if p.strip()]


def _search(segment: Segment, parts: list[str], loose: bool) -> Match | None:
    haystack, index = _fold(segment.text, loose)
    position = 0
    first = last = None
    for part in parts:
        needle, _ = _fold(part, loose)
        if len(needle) < (1 if len(parts) == 1 else MIN_PART):
            return None
        at = haystack.find(needle, position)
        if at < 0:
            return None
        first = at if first is None else first
        last = at + len(needle) - 1
        position = at + len(needle)
    start, end = index[first], index[last] + 1
    line = segment.line + segment.text.count("\n", 0, start)
    return Match(segment, line, segment.text[start:end], loose)


def locate(quote: str, segments: tuple[Segment, ...]) -> Match | None:
    """The first segment (in source order) holding ``quote``: exact first, then loose."""
    parts = _parts(quote)
    if not parts:
        return None
    for loose in (False, True):
        for segment in segments:
            found = _search(segment, parts, loose)
            if found is not None:
                return found
    return None
