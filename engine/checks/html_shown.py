"""Where an HTML file (``.html``, ``.htm``) shows otherwise than the Markdown guess of
``markdown_seen`` reads it, as the HTML parsing algorithm browsers follow reads it:

- a character reference without its ``;`` (``&nbsp``, ``&#45``, ``&#x41``, ``&amp``) shows
  its character too, as ``html.unescape`` (which follows that algorithm) reads it;
- every line break shows as a space with the blanks beside it (``line_breaks``): a blank
  line, or a line opening with ``>``, ``- `` or ``#``, ends no paragraph in HTML.

Each is read for an HTML file only: a Markdown renderer writes these as they stand, so a
browser shows a Markdown text's ``&nbsp`` as written."""

from __future__ import annotations

import re
from html.entities import html5
from typing import Iterator

# The names a browser reads without their ``;`` (``&amp``, ``&nbsp``, ``&copy`` ...: the
# legacy ones), longest first, so ``&notin`` is read whole before ``&not``.
_BARE_NAMES = "|".join(sorted((name for name in html5 if not name.endswith(";")), key=lambda n: (-len(n), n)))
# A character reference as the HTML parser reads one in text: a number, decimal or hex,
# its ``;`` left out or not, or a name with its ``;`` or a legacy one without. What it
# shows is told by ``html.unescape``; a name it does not know is shown as written.
ENTITY = rf"&(?:\#[0-9]++;?|\#[xX][0-9a-fA-F]++;?|[A-Za-z][A-Za-z0-9]{{1,31}}+;|(?:{_BARE_NAMES}))"
# A run of HTML's white space (space, tab, form feed, carriage return, line feed), taken
# whole: each character is read once.
_WHITE = re.compile(r"[ \t\f\r\n]++")


def line_breaks(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Each run of white space holding a line break between ``start`` and ``end``, in
    order (where it starts and ends): a browser shows it as one space, blank lines and
    all. Inside ``<pre>`` it shows a break: taken for a space there, it costs at most an
    ERROR (``markdown_seen``)."""
    for found in _WHITE.finditer(text, start, end):
        if "\n" in found.group() or "\r" in found.group():
            yield found.start(), found.end()
