"""Inline markup whose delimiters a reader does not see: a link shows its text alone,
a code span its content, emphasis its words, and a processing instruction, CDATA or
declaration nothing (``markdown_seen`` reads them as it passes them)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterator

import regex

from referee.engine.checks.folding import INVISIBLE, kept_form
from referee.engine.checks.markdown_breaks import Mark

_TICKS = re.compile(r"`+")
# The end of an inline link's text and its destination, ``](url)``, ``](<a b.md>)`` or
# ``](url "title")``, or of a full or collapsed reference link's, ``][ref]``, ``][]``: a
# reader sees the link's text alone. A destination here holds no bracket, so no match
# runs past the next ``]``: linear.
_LINK_END = re.compile(r"""\]\([ \t]*+(?:<[^<>\n]*+>|(?:[^()\[\]\s]|\([^()\[\]\s]*\))*+)"""
                       r"""(?:[ \t]++(?:"[^"\n]*"|'[^'\n]*'))?[ \t]*+\)"""
                       r"|\]\[[^\[\]\n]*\]")
_BRACKET = re.compile(r"(?<!\\)[\[\]]")
# A link reference definition's label, ``[ref]: url`` (in a block quote or list item too):
# a ``[ref]`` so labelled elsewhere is a shortcut reference link, shown as its text alone.
_DEFINED = re.compile(r"^[ \t>*+-]*+\[([^\[\]\n]++)\]:", re.MULTILINE)
_BLANKS = re.compile(r"\s+")


def emphasis(text: str, start: int, end: int, low: int, high: int) -> bool:
    """Whether the run of ``*``, ``_`` or ``~`` from ``start`` to ``end`` may open or
    close emphasis: it touches a word, and is no ``_`` inside one."""
    before = text[start - 1] if start > low else " "
    after = text[end] if end < high else " "
    if before.isspace() and after.isspace():
        return False
    return not (set(text[start:end]) == {"_"} and before.isalnum() and after.isalnum())


def declaration_end(text: str, opening: re.Match | regex.Match, end: int, lasts: dict[str, int],
                    html: bool = False) -> int:
    """Where the processing instruction (``<?php ... ?>``), CDATA (``<![CDATA[ ... ]]>``)
    or declaration (``<!DOCTYPE html>``) that ``opening`` opens ends, after its end; -1
    when none follows before ``end``: it is then text (CommonMark 0.31, raw HTML). A
    browser reads each as a comment and shows nothing of it; in an HTML file (``html``)
    each ends at the first ``>``, as the HTML parser reads it (``html_shown``). ``lasts``
    keeps where the last end of each kind stands, so that many unclosed ones are read in
    linear time."""
    written = opening.group()
    close = ">" if html else "?>" if written == "<?" else "]]>" if written.startswith("<![") else ">"
    if close not in lasts:  # looked for once: the first opening of its kind starts the search
        lasts[close] = text.rfind(close, opening.start(), end)
    found = text.find(close, opening.end(), end) if opening.end() <= lasts[close] else -1
    return found + len(close) if found >= 0 else -1


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
    """The links of a text between two offsets: for each unescaped ``]`` that ends a
    link's text, where the link ends (``ends``), and the ``[`` that opens it (the one
    it closes, brackets nested in a link's text taken in pairs: ``[a [b]](u)``); and the
    ends of the links opened so far."""

    openers: dict[int, int]
    ends: dict[int, int]
    opened: dict[int, int]

    @classmethod
    def of(cls, text: str, start: int, end: int) -> "Links":
        openers: dict[int, int] = {}
        ends: dict[int, int] = {}
        stack: list[int] = []
        labels: frozenset[str] | None = None  # read at the first bracket pair that may be a shortcut
        for found in _BRACKET.finditer(text, start, end):
            at = found.start()
            if found.group() == "[":
                stack.append(at)
                continue
            if not stack:
                continue
            opening = stack.pop()
            link = _LINK_END.match(text, at, end)
            if link is None and text[at + 1:at + 2] != ":":
                labels = labels if labels is not None else kept_form("markdown labels", text, _labels)
                if _label(text[opening + 1:at]) in labels:  # a shortcut reference link
                    openers[opening], ends[at] = at, at + 1
                continue
            if link is not None:
                openers[opening], ends[at] = at, link.end()
        return cls(openers, ends, {})

    def opens(self, text: str, at: int) -> bool:
        """Whether the ``[`` at ``at`` opens a link: the ``]`` it pairs with ends a link's
        text, and it opens no image (``![alt](src)``: a reader sees the image, not its words)."""
        close = self.openers.get(at)
        if close is None or text[at - 1:at] == "!":
            return False
        self.opened[close] = self.ends[close]
        return True

    def closes(self, at: int) -> int | None:
        """Where the link whose text ends at ``at`` ends, when a ``[`` opened it."""
        return self.opened.pop(at, None)


def _label(text: str) -> str:
    """A link label as definitions match it: case folded, its blanks one space."""
    return _BLANKS.sub(" ", text.strip()).casefold()


def _labels(text: str) -> frozenset[str]:
    """The labels the link reference definitions of ``text`` define."""
    return frozenset(_label(found.group(1)) for found in _DEFINED.finditer(text))


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
