"""The code blocks of a text, as a reader of it rendered sees them: ``code(x)``.

Markdown puts code in more places than a fence at the start of a line, and a check
that no block holds ``rm -rf`` must see every one of them:

- a fence (```` ``` ```` or ``~~~``) indented at most three spaces, as before;
- a fence inside a list item, indented up to three spaces past the item's text
  (a nested list puts it four or more spaces in), or on the item's marker line
  (``- ```sh``); it ends with its closing fence, or with the item, when a line is
  written left of the item's text;
- an indented block: lines four spaces past the text they stand in (the page, or a
  list item), after a blank line; right after a line of text, such a line only
  goes on with that text;
- a ``<pre>`` element opening a line (``html_pre``), to the line holding ``</pre>`` or
  the end of its container: a browser shows its text as preformatted code;
- any of these inside a block quote, its ``>`` markers left out; it ends with the
  quote.

A fence or an indented line inside an HTML block that a blank line ends (a line opening
with ``<details>``, ``<div>`` ..., ``html_block_starts``) is no code: the renderer passes
it to the browser as written, which shows its text, not a code block. A ``<pre>`` opening
a line there is one all the same.

A block's text is what it shows: a fence's own indentation is not part of its
lines, nor are an indented block's four spaces, nor a ``<pre>`` element's tags. Lines inside an HTML comment that
opens a line are no code (``markdown_lines.marked_lines`` marks them). This is a line-based
reading, not a full Markdown parser: a line that goes on with a paragraph lazily
keeps the list item open, and tabs count to the next multiple of four.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol, Sequence

from referee.dsl.frozen import frozen
from referee.engine.checks.html_block_starts import opens_html_block
from referee.engine.checks.html_pre import PRE_CLOSE, PRE_OPEN, pre_shown

_FENCE = re.compile(r"(`{3,}|~{3,})")
_PRE = "<pre"  # the "fence" of a block that a <pre> element opens
_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?=[ \t]|\Z)")
_QUOTE = re.compile(r" {0,3}> ?")
_QUOTES = re.compile(r"(?: {0,3}> ?)+")
# Quotes inside quotes are read one level at a time, to this depth; deeper markers are
# left out all at once, so a line of ten thousand ">" costs no deeper a stack.
MAX_QUOTE_DEPTH = 32


class SourceLine(Protocol):
    """A line as ``textparts`` reads it: its number (0-based), its text, and whether an
    HTML comment hides it."""

    @property
    def number(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def comment(self) -> bool: ...
    @property
    def raw(self) -> str: ...


@frozen
class Block:
    """One code block: the number of the line its text starts on, and its lines as shown;
    the lines it stands on, fences and tags included (``start`` to ``last``), and whether
    it is a ``<pre>`` element (``html_pre``)."""

    first: int
    lines: tuple[str, ...]
    start: int = -1
    last: int = -1
    html: bool = False


@dataclass
class _Open:
    """A block being read: a fence (its characters, its indentation, the indentation of
    the text it stands in) or an indented block (``fence`` empty)."""

    fence: str
    indent: int
    container: int
    first: int
    lines: list[str] = field(default_factory=list)
    start: int = -1  # the line it opens on
    last: int = -1  # the last line it took


@frozen
class _Quoted:
    """A line of a block quote, its markers left out."""

    number: int
    text: str
    comment: bool = False
    raw: str = ""


def code_blocks(lines: Sequence[SourceLine]) -> list[Block]:
    """Every code block of ``lines``, in the order they start."""
    return _Reader(0).read(lines)


class _Reader:
    def __init__(self, depth: int) -> None:
        self.depth = depth  # the quotes this text stands in
        self.blocks: list[Block] = []
        self.items: list[int] = []  # the text column of each open list item, innermost last
        self.open: _Open | None = None
        self.quote: list[_Quoted] = []
        self.blank_before = True  # at the start, as after a blank line
        self.html: int | None = None  # the column of the text an open HTML block stands in

    def read(self, lines: Sequence[SourceLine]) -> list[Block]:
        for line in lines:
            self._line(line)
        self._end_quote()
        self._close()
        return sorted(self.blocks, key=lambda block: block.first)

    def _line(self, line: SourceLine) -> None:
        text = _expand(line.text)
        indent = len(text) - len(text.lstrip(" "))
        blank = not text.strip()
        if self.quote and (blank or _QUOTE.match(text) is None):
            self._end_quote()
        if self.open is not None and self._goes_on(text, indent, blank, line.number):
            return
        if line.comment or line.raw not in ("", "pre", "html"):  # a script's, a style's or a textarea's text: no code
            self.blank_before = False
            return
        if blank:
            self.blank_before = True
            self.html = None  # a blank line ends an HTML block
            return
        if self.html is not None and indent < self.html:
            self.html = None  # its list item ends here, and the block with it
        if self.html is not None:
            self._in_html(text, indent, line.number)
        else:
            self._start(text, indent, line.number)
        self.blank_before = False

    def _in_html(self, text: str, indent: int, number: int) -> None:
        """A line of an HTML block: shown as written, no code, save a ``<pre>`` opening it."""
        assert self.html is not None
        if PRE_OPEN.match(text, indent) is not None:
            self.open = _Open(_PRE, indent, self.html, number, [text[indent:]], number, number)
            if PRE_CLOSE.search(text, indent) is not None:
                self._close()

    def _goes_on(self, text: str, indent: int, blank: bool, number: int) -> bool:
        """Whether the open block takes this line (as content or as its closing fence)."""
        block = self.open
        assert block is not None
        if not block.fence:  # an indented block: lines four spaces in, and blank lines
            if blank or indent >= block.indent:
                block.lines.append(text[block.indent:] if not blank else "")
                block.last = number if not blank else block.last
                return True
            self._close()
            return False
        if not blank and indent < block.container:  # the list item, and its code, end here
            self._close()
            return False
        block.last = number
        if block.fence == _PRE:  # raw lines, to the one holding </pre>
            block.lines.append(text[min(indent, block.container):])
            if PRE_CLOSE.search(text) is not None:
                self._close()
            return True
        found = _FENCE.match(text, indent)
        if found and indent - block.container <= 3 and found.group(1)[0] == block.fence[0] \
                and len(found.group(1)) >= len(block.fence) and not text[found.end():].strip():
            self._close()
            return True
        block.lines.append(text[min(indent, block.indent):])
        return True

    def _start(self, text: str, indent: int, number: int) -> None:
        """A line outside any block: it may open one, a quote or a list item."""
        if self.blank_before or _starts_block(text, indent):
            while self.items and self.items[-1] > indent:
                self.items.pop()
        base = self.items[-1] if self.items else 0
        if self.blank_before and indent >= base + 4:
            self.open = _Open("", base + 4, base, number, [text[base + 4:]], number, number)
            return
        if indent - base > 3:
            return  # text going on with the paragraph above it
        quoted = (_QUOTE if self.depth < MAX_QUOTE_DEPTH else _QUOTES).match(text)
        if quoted is not None:
            self.quote.append(_Quoted(number, text[quoted.end():]))
            return
        marker = _MARKER.match(text, indent)
        if marker is not None:
            self._item(text, marker.end(), number)
            return
        self._fence(text, indent, base, number, not self.blank_before)

    def _item(self, text: str, end: int, number: int) -> None:
        """A list item's marker line: its text's column, and a fence written on it."""
        rest = text[end:]
        gap = len(rest) - len(rest.lstrip(" "))
        column = end + (gap if 1 <= gap <= 4 else 1)
        self.items.append(column)
        if rest.strip():
            self._fence(text, column, column, number, False)

    def _fence(self, text: str, indent: int, container: int, number: int, after_paragraph: bool) -> None:
        """A fence, or a ``<pre>`` element, opening a block on this line; or a tag opening
        an HTML block, whose lines hold no code."""
        found = _FENCE.match(text, indent)
        if found is not None:
            self.open = _Open(found.group(1), indent, container, number + 1, [], number, number)
        elif PRE_OPEN.match(text, indent) is not None:
            self.open = _Open(_PRE, indent, container, number, [text[indent:]], number, number)
            if PRE_CLOSE.search(text, indent) is not None:
                self._close()
        elif opens_html_block(text, indent, after_paragraph):
            self.html = container

    def _close(self) -> None:
        block = self.open
        self.open = None
        if block is None:
            return
        lines = block.lines
        if block.fence == _PRE:
            skipped, shown = pre_shown("\n".join(lines))
            self.blocks.append(Block(block.first + skipped, tuple(shown.split("\n")), block.start, block.last, True))
            return
        if not block.fence:  # blank lines after an indented block are not part of it
            while lines and not lines[-1].strip():
                lines.pop()
        # an empty fenced block stands at its opening fence: no line of it follows
        first = block.first if lines or not block.fence else block.first - 1
        self.blocks.append(Block(first, tuple(lines), block.start, block.last))

    def _end_quote(self) -> None:
        """The blocks of the quote just ended, read as a text of their own."""
        if self.quote:
            self.blocks.extend(_Reader(self.depth + 1).read(self.quote))
            self.quote = []


def _starts_block(text: str, indent: int) -> bool:
    """Whether a line left of a list item's text ends the item (a marker, a quote, a
    heading, a fence, a ``<pre>`` element) rather than going on with its paragraph."""
    rest = text[indent:]
    return bool(_MARKER.match(rest) or rest.startswith((">", "#", "```", "~~~")) or PRE_OPEN.match(rest))


def _expand(text: str) -> str:
    """``text`` with the tabs of its indentation expanded to the next multiple of four."""
    lead = len(text) - len(text.lstrip(" \t"))
    return text[:lead].expandtabs(4) + text[lead:] if "\t" in text[:lead] else text
