"""Where an HTML file (``.html``, ``.htm``, ``.xhtml``, ``.svg``) shows otherwise than the Markdown guess of
``markdown_seen`` reads it, as the HTML parsing algorithm browsers follow reads it:

- a character reference without its ``;`` (``&nbsp``, ``&#45``, ``&#x41``, ``&amp``) shows
  its character too, as ``html.unescape`` (which follows that algorithm) reads it;
- every line break shows as a space with the blanks beside it (``line_breaks``): a blank
  line, or a line opening with ``>``, ``- `` or ``#``, ends no paragraph in HTML;
- a comment ends at its first ``-->`` or ``--!>``, and one that nothing closes runs to
  the end of the text, inside a paragraph too (``comment_end``);
- ``<?``, ``<!`` (a declaration, ``<!DOCTYPE html>``, or CDATA, which HTML outside SVG
  and MathML reads as a comment) and ``</`` before no letter (``</ x>``) open a comment
  that ends at the first ``>`` (``BOGUS_COMMENT``);
- a backtick, a run of three, and a backslash are shown as written: HTML has no code
  spans, fenced code or escapes (``markdown_seen`` reads none in an HTML file), so
  ``<p>Run `rm <b>-rf</b> build`</p>`` shows "rm -rf build";
- more elements hide what they hold (``HIDDEN_ELEMENTS``): ``<title>`` (a tab's name, never
  the page), an ``<iframe>``'s, ``<noembed>``'s and ``<noframes>``' text, what a
  ``<canvas>``, ``<video>`` or ``<audio>`` holds for a browser that has none, a
  ``<datalist>``'s options, a ``<dialog>`` not ``open`` and an SVG image's ``<desc>``.
  A Markdown renderer may strip such a tag and show its text: a Markdown text reads
  none of them.

Each is read for an HTML file only: a Markdown renderer writes these as they stand, so a
browser shows a Markdown text's ``&nbsp`` as written."""

from __future__ import annotations

import re
from html.entities import html5
from typing import Iterator

from referee.engine.checks.html_attributes import attributes

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


# What opens a comment that ends at the first ``>`` (the HTML parser's bogus comment): a
# processing instruction, a declaration or CDATA (a ``<!--`` is read before: a comment),
# and an end tag whose name is no letter.
BOGUS_COMMENT = r"<\?|<!|</(?![A-Za-z])"
_COMMENT_CLOSE = re.compile(r"--!?>")


def last_comment_close(text: str, start: int, end: int) -> int:
    """Where the last ``-->`` or ``--!>`` between ``start`` and ``end`` starts, -1 when none:
    no comment opened after it closes, so none is looked for past it."""
    return max(text.rfind("-->", start, end), text.rfind("--!>", start, end))


def comment_end(text: str, start: int, end: int, last: int) -> int:
    """Where the comment opened at ``start`` ends, as the HTML parser reads it: after its
    first ``-->`` or ``--!>`` (``<!-->`` and ``<!--->`` are ones), else, when none follows
    (``last``, where the last one starts, stands before), with the text."""
    found = _COMMENT_CLOSE.search(text, start + 2, end) if start < last else None
    return found.end() if found is not None else end


# The elements whose content a browser never shows in an HTML file, beside
# ``markdown_seen.HIDDEN_ELEMENTS``; the first four hold text, no tags (``RAW_TEXT``).
HIDDEN_ELEMENTS = ("title", "iframe", "noembed", "noframes", "canvas", "video", "audio", "datalist", "dialog",
                   "desc")  # an SVG image's description, which a reader of the page is never shown
RAW_TEXT = HIDDEN_ELEMENTS[:4]


def hides(name: str, tag: str) -> bool:
    """Whether the element ``name``, opened by ``tag``, hides what it holds in an HTML
    file: one of ``HIDDEN_ELEMENTS``, a ``<dialog>`` only when not ``open``."""
    return name in HIDDEN_ELEMENTS and not (name == "dialog" and "open" in attributes(tag))
