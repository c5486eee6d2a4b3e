"""The blocks of a Markdown text that decide how the rest is read: fenced code, shown
as written, and the raw HTML blocks that run to an end condition (CommonMark 0.31, HTML
blocks, start conditions 1 and 2: a comment, ``<script>``, ``<style>``, ``<pre>``,
``<textarea>``), whose lines a renderer passes through as written, so a fence there
opens no code."""

from __future__ import annotations

import re
from typing import Iterator

from referee.engine.text import line_end

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$", re.MULTILINE)
# A run of backticks that opens fenced code: three or more, and no backtick after them on
# their line (CommonMark 0.31, fenced code blocks: ```` ```All``` done ```` is a code span
# in a paragraph). The run is taken whole, and the rest of its line read once: linear.
BACKTICK_FENCE = r"`{3,}+(?=[^`\n]*$)"
# A line that opens fenced code, or an HTML block that runs to an end condition
# (CommonMark 0.31, start conditions 1 and 2), inside a block quote or list item too.
# Its blanks are taken possessively: a blank that one marker's space or the next
# marker's indentation could take would make a line of many markers that opens no block
# ("-   " forty times) cost time growing as a power of their number.
_CONTAINER = r"(?:[ \t]{0,3}+(?:>[ \t]?+|[-+*][ \t]++|[0-9]{1,9}+[.)][ \t]++))*"
_BLOCK = re.compile(rf"^(?: {{0,3}}(?P<fence>{BACKTICK_FENCE}|~{{3,}})(?P<info>.*)$"
                    rf"|{_CONTAINER} {{0,3}}(?P<html><!--|<(?:script|style|pre|textarea)(?=[ \t>]|$)))",
                    re.MULTILINE | re.IGNORECASE)
_RAW_END = re.compile(r"</(?:script|style|pre|textarea)>", re.IGNORECASE)


def blocks(text: str) -> Iterator[tuple[int, int, bool]]:
    """The text as pieces (start, end, whether fenced code), in order. A raw HTML block
    that runs to an end condition (a comment, ``<script>`` ...) is text whose fences
    are none: a renderer passes its lines through as they are written."""
    at = pos = 0
    while (found := _BLOCK.search(text, pos)) is not None:
        if found.group("html") is not None:
            pos = _html_end(text, found)
            continue
        yield at, found.start(), False
        at = pos = _fence_end(text, found)
        yield found.start(), at, True
    yield at, len(text), False


def _fence_end(text: str, opening: re.Match) -> int:
    """Where the code a fence opens ends: after the next fence of its kind, at least as
    long and bare; else at the end of the text."""
    run = opening.group("fence")
    for found in _FENCE.finditer(text, opening.end()):
        close = found.group(1)
        if close[0] == run[0] and len(close) >= len(run) and not found.group(2).strip():
            return found.end()
    return len(text)


def _html_end(text: str, opening: re.Match) -> int:
    """Where an HTML block ends: with the line holding its end (``-->`` for a comment,
    ``<!-->`` included; a closing ``</script>``, ``</style>``, ``</pre>`` or
    ``</textarea>`` for the others), else with the text (CommonMark 0.31, HTML blocks,
    start conditions 1 and 2)."""
    start = opening.start("html")
    if opening.group("html") == "<!--":
        close = text.find("-->", start + 2)
    else:
        found = _RAW_END.search(text, start)
        close = found.start() if found is not None else -1
    return len(text) if close < 0 else line_end(text, close)


def opens_block(text: str, start: int) -> bool:
    """Whether the markup at ``start`` opens its line, after at most three spaces or a
    block quote's or list item's marker: then it opens an HTML block."""
    found = _BLOCK.match(text, text.rfind("\n", 0, start) + 1)
    return found is not None and found.start("html") == start
