"""Inline spans whose delimiters a reader does not see: a link shows its text alone,
a code span its content (``markdown_seen`` reads them as it passes them)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterator

import regex

from referee.engine.checks.folding import INVISIBLE
from referee.engine.checks.markdown_breaks import Mark

_TICKS = re.compile(r"`+")
# The end of an inline link's text and its destination, ``](url)`` or ``](url "title")``,
# or of a full reference link's, ``][ref]``: a reader sees the link's text alone. A
# destination here holds no bracket, so no match runs past the next ``]``: linear.
_LINK_END = re.compile(r"""\](?:\((?:[^()\[\]\s]|\([^()\[\]\s]*\))*+(?:[ \t]++(?:"[^"\n]*"|'[^'\n]*'))?[ \t]*+\)"""
                       r"|\[[^\[\]\n]+\])")
_CLOSING = re.compile(r"(?<!\\)\]")


def invisible(text: str, start: int, end: int) -> Iterator[Mark]:
    """The invisible format characters between ``start`` and ``end``, each shown as nothing."""
    for found in INVISIBLE.finditer(text, start, end):
        yield found.start(), found.end(), "", "invisible"


def code_span(text: str, opening: int, content: int, close: int,
              spans: list[tuple[int, int]] | None) -> Iterator[Mark]:
    """A code span's marks: its runs of backticks, shown as nothing (with one space inside
    each, when both are there and the content is not all spaces, as CommonMark strips
    them), and the invisible characters of its content, which shows as written; the
    content is added to ``spans``."""
    after = close + (content - opening)
    if text[content] == " " and text[close - 1] == " " and text[content:close].strip(" "):
        content, close = content + 1, close - 1
    if spans is not None:
        spans.append((content, close))
    yield opening, content, "", "code"
    yield from invisible(text, content, close)
    yield close, after, "", "code"


@dataclass
class Links:
    """The links of a text between two offsets: each unescaped ``]`` and, for those that
    end a link's text (``_LINK_END``), where the link ends; and the ends of the links
    opened so far."""

    closings: list[int]
    ends: dict[int, int]
    opened: dict[int, int]

    @classmethod
    def of(cls, text: str, start: int, end: int) -> "Links":
        closings = [found.start() for found in _CLOSING.finditer(text, start, end)]
        ends = {at: found.end() for at in closings if (found := _LINK_END.match(text, at, end)) is not None}
        return cls(closings, ends, {})

    def opens(self, text: str, at: int) -> bool:
        """Whether the ``[`` at ``at`` opens a link: the next ``]`` ends a link's text, and
        it opens no image (``![alt](src)``: a reader sees the image, not its words)."""
        index = bisect_right(self.closings, at)
        if index == len(self.closings) or self.closings[index] not in self.ends or text[at - 1:at] == "!":
            return False
        self.opened[self.closings[index]] = self.ends[self.closings[index]]
        return True

    def closes(self, at: int) -> int | None:
        """Where the link whose text ends at ``at`` ends, when a ``[`` opened it."""
        return self.opened.pop(at, None)


def closing_runs(text: str, start: int, end: int) -> dict[int, list[int]]:
    """Where each run of backticks starts, by its length: a code span's closing run is
    the next of as many, found without reading the text again."""
    runs: dict[int, list[int]] = {}
    for found in _TICKS.finditer(text, start, end):
        runs.setdefault(len(found.group()), []).append(found.start())
    return runs


def close_of(closes: dict[int, list[int]], opening: re.Match | regex.Match) -> int | None:
    starts = closes.get(len(opening.group()), [])
    i = bisect_right(starts, opening.start())
    return starts[i] if i < len(starts) else None
