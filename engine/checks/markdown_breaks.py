"""The soft line breaks of a Markdown text: a line break between two lines of one
paragraph, which a renderer shows as one space, the spaces and tabs at the end of the
line and at the start of the next left out (CommonMark 0.31, soft line breaks).
``The migration is`` and ``done`` on two lines show "The migration is done", and so do
``> The migration is`` and ``> done``, two lines of one block quote. And its
blanks as a browser shows them (``with_blanks``).

Not one: a blank line (it ends the paragraph), a hard break (two or more spaces or a
backslash before it, shown as a break), a break before a line that starts a block (an
ATX heading, a list item, a block quote, a fence, a thematic break or a setext
underline, a table row opening with ``|``, an HTML block that may end a paragraph:
a comment, a raw or block element's tag, not ``<sup>`` ...) or after one that cannot go
on (a heading, a table row, a thematic break). A line break inside an HTML block (from
a line opening with ``<`` to the next blank line) is passed to the browser, which shows
it as a space whatever ends the line, save in a comment or a ``<pre>``, ``<textarea>``,
``<script>`` or ``<style>`` block. Two lines of one block quote are one paragraph in a
list item too (``- > a`` and ``  > b``). Fenced code is never read here
(``markdown_blocks``). This is a guess, not a renderer: a break taken as soft where a
renderer keeps it only ever costs an ERROR (``markdown_seen``), never a verdict."""

from __future__ import annotations

import itertools
import math
import re
from bisect import bisect_right
from typing import Iterator, Sequence

from referee.engine.checks.html_block_starts import BLOCK_NAMES as _BLOCK_NAMES
from referee.engine.checks.markdown_blocks import BACKTICK_FENCE

_INDENT = r"[ ]{0,3}"
# The HTML blocks that may end a paragraph (CommonMark 0.31, HTML blocks, start
# conditions 1 to 6): a comment, a processing instruction, a declaration, CDATA, a raw
# element, and the tags of the block elements. A line opening with another tag (``<sup>``,
# ``<span>``, ``<a>``) goes on the paragraph: its line break before is soft.
_HTML_INTERRUPTS = (r"<(?:!--|\?|![A-Za-z]|!\[CDATA\[|(?i:script|pre|style|textarea)(?=[ \t>]|$)"
                    rf"|/?(?i:{_BLOCK_NAMES})(?=[ \t]|/?>|$))")
# A line that starts a block: the paragraph before it ends there.
_STARTS_BLOCK = re.compile(rf"{_INDENT}(?:#{{1,6}}(?:[ \t]|$)|[-+*](?:[ \t]|$)|[0-9]{{1,9}}[.)](?:[ \t]|$)|>"
                           rf"|{BACKTICK_FENCE}|~{{3,}}|\||{_HTML_INTERRUPTS}|=+[ \t]*$|(?:[-*_][ \t]*){{3,}}$)")
# A line after which no paragraph goes on: a heading, a table row, a thematic break or
# a setext underline.
_ENDS_BLOCK = re.compile(rf"{_INDENT}(?:#{{1,6}}(?:[ \t]|$)|\||=+[ \t]*$|(?:[-*_][ \t]*){{3,}}$)")
_HTML_LINE = re.compile(rf"{_INDENT}<[A-Za-z/!?]")
_LINE = re.compile(r"[^\n]*\n?")
_QUOTE = re.compile(r"(?:[ ]{0,3}>[ ]?)++")  # a line's block quote markers
# A line's block quote markers inside a list item: the item's marker before them on its
# first line (``- > a``), its indentation on the next (``  > b``). Each step takes a ``>``.
_ITEM_QUOTE = re.compile(r"[ \t]*+(?:[-+*]|[0-9]{1,9}+[.)])[ \t]++(?:[ \t]*+>[ ]?)++")
_INDENTED_QUOTE = re.compile(r"(?:[ \t]*+>[ ]?)++")
# An HTML block whose lines a browser shows as written, line breaks and all.
_RAW_HTML = re.compile(rf"{_INDENT}<(?:pre|textarea|script|style)(?=[ \t>]|$)", re.IGNORECASE)
_BLANKS = re.compile(r"[ \t\f]+")  # a form feed is white space to a browser too

Mark = tuple[int, int, str, str]  # start and end in the text as written, what it shows, and its kind


def soft_breaks(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Each soft line break between ``start`` and ``end`` (text that is no fenced code),
    in order: where it starts in ``text`` (the spaces ending its line) and where it
    ends (past the spaces starting the next)."""
    html = ""  # the HTML block a line is in: "comment" (to its -->), "block" (to a blank line), or none
    lines = [found for found in _LINE.finditer(text, start, end) if found.group()]
    for line, after in zip(lines, lines[1:]):
        written, following = line.group().rstrip("\r\n"), after.group().rstrip("\r\n")
        inside = _in_one_quote(written, following)
        if inside is not None:  # two lines of one block quote: their text past the markers
            written, following = written[inside[0]:], following[inside[1]:]
        at, next_at = (line.start(), after.start()) if inside is None else (line.start() + inside[0],
                                                                             after.start() + inside[1])
        if not written.strip(" \t"):
            html = ""  # a blank line ends an HTML block
            continue
        if html or _HTML_LINE.match(written) is not None:
            html = _html_after(written, html)
            if html == "block" and following.strip(" \t"):  # a browser shows it as a space
                yield at + len(written.rstrip(" \t")), next_at + len(following) - len(following.lstrip(" \t"))
            continue
        if not following.strip(" \t") or not _joins(written, following):
            continue
        yield at + len(written.rstrip(" \t")), next_at + len(following) - len(following.lstrip(" \t"))


def _in_one_quote(line: str, following: str) -> tuple[int, int] | None:
    """Where the text of each line starts past its block quote markers, when both lines
    are in a block quote as deep (``> a`` and ``> b`` are one paragraph, shown "a b");
    None otherwise."""
    one, other = _QUOTE.match(line), _QUOTE.match(following)
    if one is None or other is None:  # in a list item: "- > a" and "  > b"
        one, other = _ITEM_QUOTE.match(line), _INDENTED_QUOTE.match(following)
    if one is None or other is None or one.group().count(">") != other.group().count(">"):
        return None
    return one.end(), other.end()


def _html_after(line: str, html: str) -> str:
    """The HTML block the line after ``line`` is in, ``line`` being in ``html`` or
    opening one: a comment's ends with the line holding its ``-->`` (CommonMark 0.31,
    start condition 2), the others with a blank line."""
    kind = html or ("comment" if line.lstrip(" ").startswith("<!--") else
                    "raw" if _RAW_HTML.match(line) is not None else "block")
    return "" if kind == "comment" and "-->" in line else kind


def _joins(line: str, following: str) -> bool:
    """Whether the break between ``line`` and ``following`` (neither blank) is soft."""
    if line.endswith("  ") or line.endswith("\\"):  # a hard break
        return False
    return _ENDS_BLOCK.match(line) is None and _STARTS_BLOCK.match(following) is None


def with_breaks(marks: Iterator[Mark], breaks: Iterator[tuple[int, int]]) -> Iterator[Mark]:
    """``marks`` and the soft line breaks among them, in order: a break inside a piece
    of markup (a comment over lines) is that markup's, and shows as it does."""
    pending = next(breaks, None)
    for mark in marks:
        while pending is not None and pending[0] < mark[1]:
            if pending[1] <= mark[0]:
                yield pending[0], pending[1], " ", "break"
            pending = next(breaks, None)
        yield mark
    while pending is not None:
        yield pending[0], pending[1], " ", "break"
        pending = next(breaks, None)


def with_blanks(text: str, marks: Iterator[Mark], zone: tuple[int, int],
                spans: Sequence[tuple[int, int]]) -> Iterator[Mark]:
    """``marks`` and the blanks among them as a browser shows them (it collapses white
    space): a run of spaces, tabs and form feeds shows as one space, and as nothing right after a
    space shown (``All <!-- x --> done`` shows "All done"; a soft line break there too).
    ``zone`` is the text's start and end; code spans show as written (``spans``, in
    order: all of them, or, as ``markdown_marks`` lists each as it passes it, at least
    every span before a mark when the mark comes)."""
    done, end = zone  # done: where the text after the last mark starts
    last = ""  # the last character shown before it
    for begin, stop, made, kind in itertools.chain(marks, [(end, end, "", "")]):
        for found in _BLANKS.finditer(text, done, begin):
            beside = found.start() == done and last == " "
            if (beside or found.group() != " ") and not _in_spans(spans, found.start()):
                yield found.start(), found.end(), "" if beside else " ", "blank"
            last = " "
        if begin > done and text[begin - 1] not in " \t":
            last = text[begin - 1]
        if not kind:
            return
        if kind == "break" and last == " ":
            made = ""  # the space before it already shows
        yield begin, stop, made, kind
        last, done = (made[-1] if made else last), stop


def _in_spans(spans: Sequence[tuple[int, int]], at: int) -> bool:
    index = bisect_right(spans, (at, math.inf)) - 1
    return index >= 0 and spans[index][0] <= at < spans[index][1]
