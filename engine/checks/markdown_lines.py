"""The lines of a Markdown text as the readers of its parts see them: each marked as
hidden where no heading, rule or quote starts (inside fenced code, an HTML comment
that opens a line, a raw HTML block: ``<pre>``, ``<script>``, ``<style>``,
``<textarea>``, or an HTML block a blank line ends: ``<div>``, ``<details>`` ...), and
how many lines a text has, counted without cutting it.
``textparts`` and ``codeblocks`` read them."""

from __future__ import annotations

import re

from referee.dsl.frozen import frozen
from referee.engine.budget import spend
from referee.engine.checks.html_block_starts import opens_html_block

FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
COMMENT = re.compile(r" {0,3}<!--")
# A raw HTML block, whose lines a renderer passes through as written: no heading, rule,
# quote or fence is read there (CommonMark 0.31, HTML blocks, start condition 1). It may
# open a list item's marker line (``- <pre>``): it then ends with the item too, at a line
# written left of the item's text.
_RAW_OPEN = re.compile(r" {0,3}((?:(?:[-*+]|\d{1,9}[.)])[ \t]++)*+)<(pre|script|style|textarea)(?=[ \t>]|\Z)",
                       re.IGNORECASE)
# Where a line's text starts, past at most three spaces and any list item markers.
_LEAD = re.compile(r" {0,3}((?:(?:[-*+]|\d{1,9}[.)])[ \t]++)*+)")
_RAW_CLOSE = re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE)


@frozen
class Line:
    """One line of a text: its number (0-based) and whether it is hidden, inside fenced
    code, an HTML comment or a raw HTML block (``<pre>`` ...), where no heading, rule or
    quote starts."""

    number: int
    text: str
    hidden: bool
    fence: bool  # an opening or closing fence line itself
    comment: bool = False  # inside an HTML comment that opens a line
    raw: str = ""  # the element of the raw HTML block it stands in (``pre``, ``script`` ...), if any;
    # ``html`` in an HTML block a blank line ends (``<div>`` ...), whose tags are read all the same


def line_count(text: str) -> int:
    """How many lines ``text`` has (``\\r\\n`` and ``\\r`` end lines too; a final line
    break ends the last line, it does not start one), counted without cutting it."""
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + 1 - (breaks > 0 and text.endswith(("\n", "\r")))


def read_lines(text: str) -> list[Line]:
    """``marked_lines`` for a function of the rules: each line is a step of the assertion's
    budget, charged before any line is made."""
    count = line_count(text)
    spend(count, f"reading {count:,} lines of text")
    return marked_lines(text)


def marked_lines(text: str) -> list[Line]:
    """The lines of ``text`` (``\\r\\n`` and ``\\r`` end lines too), each marked as
    hidden (inside fenced code or an HTML comment) or not."""
    out: list[Line] = []
    fence: str | None = None
    comment = False  # inside an HTML comment opened on an earlier line
    split = re.split(r"\r\n|\r|\n", text)
    if len(split) > 1 and split[-1] == "":
        split.pop()  # a final line break ends the last line; it does not start one
    raw = ""  # the element of the raw HTML block open, if any
    item = 0  # the text column of the list item a raw HTML block opened on the marker line of
    block = -1  # the text column of an open HTML block a blank line ends (-1: none)
    after_text = False  # the line before holds text: only a block element's tag opens a block here
    for number, line in enumerate(split):
        if raw and item and line.strip() and _indent(line) < item:
            raw = ""  # the list item ends here, and the block with it
        block = _html_block_goes_on(line, block)
        found = FENCE.match(line)
        opened = COMMENT.match(line) if fence is None and not comment and not raw else None
        element = _RAW_OPEN.match(line) if fence is None and not comment and not raw and block < 0 else None
        if fence is None and not comment and not raw and block < 0 and not opened and not element:
            block = _html_block_opened(line, after_text)
        after_text = bool(line.strip())
        if block >= 0:  # passed to the browser as written: no heading, rule, quote or fence
            out.append(Line(number, line, True, False, False, "html"))
        elif comment or opened:  # an unclosed comment runs to the end, as an unclosed fence does
            comment = "-->" not in line[opened.end() if opened else 0:]
            out.append(Line(number, line, True, False, True))
        elif raw or element:  # a raw HTML block: to the line that closes one, else to the end
            if element is not None:
                raw, item = element.group(2).lower(), element.start(2) - 1 if element.group(1) else 0
            out.append(Line(number, line, True, False, False, raw))
            if _RAW_CLOSE.search(line, element.end() if element is not None else 0):
                raw = ""
        elif fence is None and found:
            fence = found.group(1)
            out.append(Line(number, line, False, True))
        elif fence is not None and found and found.group(1)[0] == fence[0] \
                and len(found.group(1)) >= len(fence) and not line.strip(" `~"):
            fence = None
            out.append(Line(number, line, False, True))
        else:
            out.append(Line(number, line, fence is not None, False))
    return out


def _html_block_goes_on(line: str, block: int) -> int:
    """The text column of the HTML block open (``block``, -1 when none) once ``line`` is
    read: a blank line ends it, as do its list item and a comment (whose lines are hidden
    to its ``-->``). A ``<pre>`` line inside it opens no block of its own: its lines are
    passed through as written to the next blank line all the same (CommonMark 0.31)."""
    if block >= 0 and (not line.strip() or _indent(line) < block or COMMENT.match(line)):
        return -1
    return block


def _html_block_opened(line: str, after_text: bool) -> int:
    """The text column of the HTML block ``line`` opens (``html_block_starts``), on a list
    item's marker line too; -1 when it opens none."""
    lead = _LEAD.match(line)
    assert lead is not None
    if not opens_html_block(line, lead.end(), after_text):
        return -1
    return lead.end() if lead.group(1) else 0


def _indent(line: str) -> int:
    """The columns of ``line``'s indentation, a tab to the next multiple of four."""
    lead = len(line) - len(line.lstrip(" \t"))
    return len(line[:lead].expandtabs(4))
