"""Markdown as a reader of it rendered sees it: the text its markup shows (and HTML,
which a browser shows as this guess reads it: ``is_markdown``).

``ve&#114;y``, ``ve**r**y``, ``ve<b>r</b>y`` and ``ve<!-- -->ry`` show "very", and
``rm \\-rf`` shows "rm -rf". A text test on a Markdown text that misses as written and
hits in the text shown cannot be decided (``checks.text``), as with invisible format
characters (``folding.as_seen``).

The form made here is a simple guess at the shown text, not a renderer: it is only
ever asked whether a miss could be a hit to a reader, never to make a hit, so where it
takes something for markup that a renderer shows (a lone ``*`` between letters) the
cost is an ERROR, never a wrong pass or fail. What it reads:

- character references: ``&#114;``, ``&#x72;`` and the named ones of HTML (``&amp;``,
  ``&lt;``, ``&nbsp;`` ...), shown as their character;
- a backslash before ASCII punctuation, shown as the punctuation alone;
- runs of ``*``, ``_`` and ``~`` (emphasis, strong, strikethrough) that touch a word,
  left out; not one standing between spaces (``2 * 3``, a list's ``* ``), nor ``_``
  inside a word (``snake_case`` shows its underscores);
- inline HTML tags, HTML comments, processing instructions (``<?php ... ?>``),
  declarations (``<!DOCTYPE html>``) and CDATA, left out, and an element hiding what it holds
  (``<script>`` ...), content and all;
- a link's ``[`` and its ``](destination)`` or ``][ref]``, left out: a reader sees its
  text alone (an image, ``![alt](src)``, is left as written: it shows no words);
- a code span's backticks, left out (its content shows as written, below);
- invisible format characters, left out (``folding.INVISIBLE``), in code too, and
  other spaces (no-break ...) shown as a space, as ``folding.as_seen`` reads them;
- for words that may hold a space only (``shown_joined``), a line break between two
  lines of one paragraph, shown as one space (``markdown_breaks``), and blanks as a
  browser shows them: a run of spaces and tabs as one space, and none right after a
  space shown (``All <!-- x --> done`` and ``All  done`` show "All done",
  ``markdown_breaks``).

Code shows what is written: fenced code (``` ``` ``` or ``~~~``, the fences
``checks.textparts`` reads; an unclosed fence runs to the end; none opens inside a raw
HTML block, ``markdown_blocks``) and the content of code spans (a run of backticks to
the next run of as many; an unclosed run is written as it is).
Indented code blocks are read as text.

Some markup hides what it holds (``markdown_hidden``): an HTML comment (one that
opens its line and nothing closes runs to the end, ``markdown_blocks``), an HTML tag
with its attributes (``<span title="disclaimer">``), and an element whose content a
browser never shows (``HIDDEN_ELEMENTS``: ``<script>``, ``<template>`` ..., or one its
attributes hide: ``<div hidden>``, ``<span style="display:none">``) show
nothing at all, so a hit only there is no hit a reader grants either. Character
references, escapes and emphasis markers hide nothing: they show as something else, or
as nothing, but never hold words a reader would have to see.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Iterable

from referee.dsl.frozen import frozen
from referee.engine.checks import html_shown
from referee.engine.checks.folding import OTHER_SPACES, kept_form
from referee.engine.checks.markdown_breaks import Mark
from referee.engine.checks.markdown_marks import HIDDEN_ELEMENTS, joined_marks, marks, read, shown_marks
from referee.engine.checks.markdown_marks import PATH_PLACEHOLDERS as PATH_PLACEHOLDERS  # named here by those reading a text as shown
from referee.engine.text import line_breaks
from referee.engine.values import Prov, Val

# A character that starts markup this module reads: a text without any is shown as
# written (save invisible characters, which ``folding.as_seen`` leaves out), and is
# never rendered.
_MARKUP = re.compile(r"[&\\*_~<`\[]")
# The files read as shown: Markdown, and HTML, which a browser shows as the same guess
# reads it (tags, comments, references, hidden elements, blanks and line breaks).
_HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".svg")  # an SVG image shows its <text> as a page shows words
_NAME_SUFFIXES = (".md", ".markdown") + _HTML_SUFFIXES
# A call's args and return (JSON or a program's text), and text the harness gave the
# agent (a prompt, a reminder's <system-reminder>, a hook's output): the model reads
# that as it is written, comments and tags included, so it is never rendered.
_NO_MARKDOWN = ("tool_calls", "suspect_calls", "harness")


def is_markdown(text: str, prov: Prov | None) -> bool:
    """Whether ``text`` is read from Markdown (or HTML): a ``.md``, ``.markdown``,
    ``.html`` or ``.htm`` file of the run (the response, an executor log's section, an
    agent's note, a file the rules read), not a tool call's fields, the harness's text,
    nor an output's name (``outputs``: the text that is its file's own name)."""
    if prov is None or not prov.file or prov.source in _NO_MARKDOWN:
        return False
    if not prov.file.lower().endswith(_NAME_SUFFIXES):
        return False
    return not prov.file.endswith("/" + text)


def markup_of(prov: Prov | None) -> str:
    """What a message calls the markup of a text read as shown: HTML or Markdown."""
    return "HTML" if prov is not None and (prov.file or "").lower().endswith(_HTML_SUFFIXES) else "Markdown"


def may_show_otherwise(text: str) -> bool:
    """Whether ``text`` holds a character markup starts with: else it is shown as written."""
    return _MARKUP.search(text) is not None


@frozen
class Shown:
    """A Markdown text as shown, with each piece of markup that shows otherwise than it
    is written: where it stands in the text shown (``at``) and in the text as written
    (``start``, ``end``), so an ERROR names the markup and its line."""

    text: str
    at: tuple[int, ...]
    start: tuple[int, ...]
    end: tuple[int, ...]
    kind: tuple[str, ...] = ()  # what each piece is: "comment", "tag", "entity" ...

    def markup_from(self, offset: int) -> int | None:
        """The index of the first piece of markup at or after ``offset`` of the text
        shown (else the last before it: the words shown may end there); None when
        there is none."""
        if not self.at:
            return None
        return min(bisect_left(self.at, offset), len(self.at) - 1)


def shown_as_markdown(text: str, html: bool = False) -> Shown:
    """``text`` (Markdown; ``html``: HTML) as shown: code as written, markup elsewhere as
    it shows. Made once for the run's checks that miss in a long text (``folding.kept_in``)."""
    return kept_form("html" if html else "markdown", text, _shown_html if html else _shown)


def shown_joined(text: str, html: bool = False) -> Shown:
    """``text`` (Markdown; ``html``: HTML) as shown with its soft line breaks too, each one space
    (``markdown_breaks``), and its blanks as shown (``markdown_breaks.with_blanks``): made only for a
    miss whose words may hold a space, since no other can hit across a break or a blank."""
    return kept_form("html joined" if html else "markdown joined", text,
                     _shown_html_with_breaks if html else _shown_with_breaks)


def may_join(text: str) -> bool:
    """Whether ``text`` (Markdown) may show blanks otherwise than written: it holds a line
    break (``\r`` alone in HTML), a run of blanks, a tab or a form feed, or markup that may
    leave two blanks side by side."""
    return any(blank in text for blank in ("\n", "\r", "  ", "\t", "\f")) or may_show_otherwise(text)


def _shown_with_breaks(text: str) -> Shown:
    return _shown(text, True)


def _shown_html(text: str) -> Shown:
    return _shown(text, False, True)


def _shown_html_with_breaks(text: str) -> Shown:
    return _shown(text, True, True)


def _shown(text: str, joined: bool = False, html: bool = False) -> Shown:
    """``text`` as shown (``joined``: with its breaks and blanks too), its markup read once
    for both forms (``markdown_marks.read``)."""
    read_once = read(text, html)
    return _made(text, joined_marks(text, read_once, html) if joined else shown_marks(read_once))


def shown_again(text: str, joined: bool = False, html: bool = False) -> Shown:
    """The form ``_shown`` makes, its markup read anew for each form (``markdown_marks.marks``):
    the reference that the forms read once are tested against."""
    return _made(text, marks(text, joined, html))


def _made(text: str, found: Iterable[Mark]) -> Shown:
    pieces: list[str] = []
    at: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    kinds: list[str] = []
    size = done = 0
    for begin, stop, made, kind in found:
        pieces += (text[done:begin], made)
        size += begin - done
        at.append(size)
        starts.append(begin)
        ends.append(stop)
        kinds.append(kind)
        size += len(made)
        done = stop
    pieces.append(text[done:])
    # A no-break space beside markup shows as a space, as it does in a text without any
    # (``folding.as_seen``): each is one character, so every offset stays where it is.
    return Shown(OTHER_SPACES.sub(" ", "".join(pieces)), tuple(at), tuple(starts), tuple(ends), tuple(kinds))


# What a message calls a soft line break and blanks shown otherwise than written.
SHOWN_AS = {"break": "a line break", "blank": "blanks shown as one space"}
# The markup that hides what it holds, and how a message names it.
HIDING = ({"comment": "an HTML comment", "tag": "an HTML tag", "attributes": "an element its attributes hide",
           "declaration": "an HTML declaration or processing instruction"}
          | {name: f"a <{name}> element" for name in HIDDEN_ELEMENTS + html_shown.HIDDEN_ELEMENTS})




def place_in(val: Val, offset: int) -> str:
    """Where offset ``offset`` of the text value ``val`` stands: its file and line, when known."""
    prov = val.prov
    if prov is None or not prov.file:
        return prov.where() if prov else val.label
    return Prov(prov.source, "", prov.file, (prov.line or 1) + line_breaks(val.value, 0, offset)).where()


def shown_form(val: Val, joined: bool = False) -> Shown | None:
    """The text value ``val`` as shown when it is Markdown holding markup that shows
    otherwise than it is written; else None (a value read as written). ``joined``: as
    shown with its soft line breaks too, when it holds one (else None: the form without
    them is the same)."""
    text = val.value
    if not (isinstance(text, str) and is_markdown(text, val.prov)):
        return None
    html = markup_of(val.prov) == "HTML"
    if joined:
        form = shown_joined(text, html) if may_join(text) else None
        return form if form is not None and ("break" in form.kind or "blank" in form.kind) else None
    if not may_show_otherwise(text):
        return None
    form = shown_as_markdown(text, html)
    return form if form.at else None
