"""The markup of a Markdown (or HTML) text, each piece where it is written and what it
shows (``markdown_seen`` says what is read and how): the blocks' inline markup, the
invisible characters of fenced code, and, for the form with its soft line breaks
joined, the breaks and blanks a browser shows otherwise than written."""

from __future__ import annotations

import functools
import html
import itertools
import re
from typing import Iterator

import regex

from referee.dsl.frozen import frozen
from referee.engine.checks import html_attributes, html_shown
from referee.engine.checks.folding import as_seen, kept_form
from referee.engine.checks.markdown_blocks import blocks, opens_block
from referee.engine.checks.markdown_breaks import Mark, soft_breaks, with_blanks, with_breaks
from referee.engine.checks.markdown_spans import (Links, close_of, closing_runs, code_span, declaration_end, emphasis,
                                                   invisible)

# Markdown's escapes and code spans: HTML shows a backslash and a backtick as written.
_MARKDOWN_ONLY = r"""
    (?P<escape>\\[!-/:-@\[-`{-~])
  | (?P<ticks>`+) |"""
_TOKEN_PATTERN = r"""
    (?P<comment><!--)
  | (?P<declaration>DECLARATION)
  | (?P<entity>ENTITY)
  | (?P<tag>TAG)
  | (?P<delimiters>[*_~]+)
  | (?P<invisible>\p{Cf})
  | (?P<bracket>\[)
  | (?P<close>\])
"""
_TOKEN_PATTERN = _TOKEN_PATTERN.replace("TAG", html_attributes.TAG)
_TOKEN = regex.compile(_MARKDOWN_ONLY + _TOKEN_PATTERN.replace(
    "DECLARATION", r"<\?|<!\[CDATA\[|<![A-Za-z]").replace(
    "ENTITY", r"&(?:\#[0-9]{1,7}|\#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"), regex.VERBOSE)


@functools.cache
def _html_token() -> regex.Pattern:
    """An HTML file's markup: the same, save what the HTML parser reads otherwise
    (``html_shown``). Compiled when an HTML file is first read: its references'
    names make it the costliest pattern to compile, and most runs hold no HTML."""
    return regex.compile(_TOKEN_PATTERN.replace("DECLARATION", html_shown.BOGUS_COMMENT).replace(
        "ENTITY", html_shown.ENTITY), regex.VERBOSE)


# The elements whose content a browser never shows: a script's and a style's text, a
# template's content, and what a <noscript> holds, which a browser running scripts (as
# browsers do) does not show. Each with its tags, opening and closing. A <details> shows
# what it holds (collapsed, a click away), as do <pre> and <textarea>.
HIDDEN_ELEMENTS = ("script", "style", "template", "noscript")
# The elements whose text holds no tag, so none of theirs nests (a template's content does).
_RAW_TEXT = ("script", "style", "noscript") + html_shown.RAW_TEXT
# What hides an element by its attributes: ``hidden``, or a style of ``display: none`` or
# ``visibility: hidden`` (``html_attributes.hidden_by``; a renderer that strips them shows
# the words: a guess that only ever costs an ERROR). An element without content
# (``<img hidden>``) hides nothing.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
_TAG_NAME = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")
# What an import writes where its source named a path (``importers.homes.HOME``, the
# session's folder ``importers.claude_code.CWD``): words standing for the path a reader
# saw, never a tag, though written like one.
PATH_PLACEHOLDERS = ("<home>", "<cwd>")


def marks(text: str, joined: bool = False, html: bool = False) -> Iterator[Mark]:
    """Each piece of markup of ``text``, in order: the invisible characters of its code,
    the markup of the rest (``joined``: its soft line breaks too; ``html``: read as an
    HTML file, ``html_shown``). An element that
    hides what it holds may run on over the blocks after its own (a ``<template>``
    holding fenced code): they are read from where it ends. Each call reads the markup
    anew: the reference that the blocks read once (``read``) are tested against."""
    past = 0
    for start, end, code in [(0, len(text), False)] if html else blocks(text):  # HTML has no fenced code
        start = max(start, past)
        if start >= end:
            continue
        if code:
            marks = invisible(text, start, end)
        else:
            spans: list[tuple[int, int]] = []
            marks = _inline(text, start, end, spans, html)
            if joined:
                breaks = html_shown.line_breaks(text, start, end) if html else soft_breaks(text, start, end)
                marks = with_blanks(text, with_breaks(marks, breaks), (start, end), spans)
        for mark in marks:
            yield mark
            past = mark[1]


@frozen
class Block:
    """A block of a text with its markup read: where it is read from (past an element
    that hides what it holds, begun in a block before) and to, whether it is fenced code,
    its marks in order (``marks`` without ``joined``), and the content of its code spans."""

    start: int
    end: int
    code: bool
    marks: tuple[Mark, ...]
    spans: tuple[tuple[int, int], ...]


def read(text: str, html: bool = False) -> tuple[Block, ...]:
    """The blocks of ``text`` (``html``: an HTML file, one block) and their markup, read
    once for both forms shown (``shown_marks``, ``joined_marks``): kept for the run as
    they are (``folding.kept_form``), so the second form costs the merge of its breaks
    and blanks alone, not a second reading of a long reply's markup."""
    return kept_form("html read" if html else "markdown read", text, _read_html if html else _read)


def _read_html(text: str) -> tuple[Block, ...]:
    return _read(text, True)


def _read(text: str, html: bool = False) -> tuple[Block, ...]:
    found: list[Block] = []
    past = 0  # where the last mark ends: a hiding element's may run over the blocks after
    for start, end, code in [(0, len(text), False)] if html else blocks(text):  # HTML has no fenced code
        start = max(start, past)
        if start >= end:
            continue
        spans: list[tuple[int, int]] = []
        held = tuple(invisible(text, start, end) if code else _inline(text, start, end, spans, html))
        past = held[-1][1] if held else past
        found.append(Block(start, end, code, held, tuple(spans)))
    return tuple(found)


def shown_marks(pieces: tuple[Block, ...]) -> Iterator[Mark]:
    """The marks of the blocks ``pieces`` (``read``), in order: ``marks`` of their text."""
    return itertools.chain.from_iterable(block.marks for block in pieces)


def joined_marks(text: str, pieces: tuple[Block, ...], html: bool = False) -> Iterator[Mark]:
    """The marks of the blocks ``pieces`` (``read``) of ``text`` and the soft line breaks
    and blanks among them (``marks`` of the text, ``joined``). A break or blank ends inside
    its block, so where the next block is read from is as without them."""
    for block in pieces:
        if block.code:
            yield from block.marks
            continue
        start, end = block.start, block.end
        breaks = html_shown.line_breaks(text, start, end) if html else soft_breaks(text, start, end)
        yield from with_blanks(text, with_breaks(iter(block.marks), breaks), (start, end), block.spans)


def _inline(text: str, start: int, end: int, spans: list[tuple[int, int]] | None = None,
            html: bool = False) -> Iterator[Mark]:
    """The markup between ``start`` and ``end`` (text that is no fenced code); each code
    span's content is added to ``spans`` when it is passed."""
    closes = closing_runs(text, start, end)
    # no comment opened after the last one closes
    comment_end = html_shown.last_comment_close(text, start, end) if html else text.rfind("-->", start, end)
    links: Links | None = None  # made at the first "["
    lasts: dict[str, int] = {}  # where the last end of each kind of declaration stands
    at = start
    while True:
        found = (_html_token() if html else _TOKEN).search(text, at, end)
        if found is None:
            return
        kind, at = found.lastgroup, found.end()
        if kind == "ticks":
            close = close_of(closes, found)
            if close is not None:  # a code span: its content shown as written, save invisible characters
                yield from code_span(text, found.start(), found.end(), close, spans)
                at = close + len(found.group())
        elif kind == "comment":
            at = _comment_end(text, found.start(), end, comment_end, html)
            if at > found.end():
                yield found.start(), at, "", "comment"
            else:
                at = found.end()
        elif kind == "declaration":
            if (closed := declaration_end(text, found, end, lasts, html)) > 0:  # else it is text
                yield found.start(), closed, "", "declaration"
                at = closed
        elif kind == "bracket":
            links = links if links is not None else Links.of(text, start, end)
            if links.opens(text, found.start()):
                yield found.start(), found.end(), "", "link"
        elif kind == "close":
            stop = links.closes(found.start()) if links is not None else None
            if stop is not None:
                yield found.start(), stop, "", "link"
                at = stop
        elif kind == "tag" and (hiding := _hiding(found.group(), html)) is not None:
            at = _element_end(text, found.end(), hiding[1])
            yield found.start(), at, "", hiding[0]
        else:
            shows = _shows(text, found, kind, start, end)
            if shows is not None:
                yield found.start(), found.end(), shows, kind or ""


def _comment_end(text: str, start: int, end: int, last: int, html: bool = False) -> int:
    """Where the comment opened at ``start`` ends: after its ``-->`` (``<!-->`` is one, as
    browsers read it), or, when none follows (``last``, the last one, stands before),
    with the text when it opens its line (an HTML block to the end), else nowhere
    (-1: inside a paragraph it is text). In an HTML file (``html``) as the HTML parser
    reads it (``html_shown.comment_end``)."""
    if html:
        return html_shown.comment_end(text, start, end, last)
    close = text.find("-->", start + 2, end) if start < last else -1
    if close >= 0:
        return close + 3
    return end if opens_block(text, start) else -1


def _hiding(tag: str, html: bool = False) -> tuple[str, str] | None:
    """What hides, and the name of the element ``tag`` opens, when a browser does not
    show what it holds: the element itself (``HIDDEN_ELEMENTS``; in an HTML file
    ``html_shown.hides`` too), or its attributes (``hidden``, a style of ``display:
    none`` or ``visibility: hidden``: "attributes")."""
    name = _TAG_NAME.match(tag)
    found = name.group(1).lower() if name is not None else ""
    if found in HIDDEN_ELEMENTS or (html and not tag.startswith("</") and html_shown.hides(found, tag)):
        return found, found
    if found and found not in _VOID and not tag.startswith("</") and html_attributes.hidden_by(tag):
        return "attributes", found
    return None


def _element_end(text: str, start: int, name: str) -> int:
    """Where the element ``name`` whose content starts at ``start`` ends: after its
    closing tag (one of the same name inside it is closed first), else with the text, as
    a browser reads it; a paragraph where a block closes it (``html_attributes.paragraph_end``)."""
    if name == "p":
        return html_attributes.paragraph_end(text, start)
    depth = 1
    for tag in _tags_named(name).finditer(text, start):
        if tag.group(1):
            depth -= 1
        elif name not in _RAW_TEXT:  # a script's or style's text holds no tag
            depth += 1
        if depth == 0:
            return tag.end()
    return len(text)


def _shows(text: str, found: regex.Match, kind: str | None, start: int, end: int) -> str | None:
    """What a piece of markup shows, None for what is shown as written."""
    written = found.group()
    if kind == "escape":
        return written[1]
    if kind == "entity":
        character = html.unescape(written)
        return None if character == written else as_seen(character)
    if kind == "delimiters":
        return "" if emphasis(text, found.start(), found.end(), start, end) else None
    if kind == "tag" and written in PATH_PLACEHOLDERS:
        return None
    return ""  # a tag, an invisible character




@functools.lru_cache(maxsize=64)
def _tags_named(name: str) -> re.Pattern:
    """The opening and closing tags of the element ``name`` (group 1: the closing ``/``)."""
    return re.compile(rf"<(/?){re.escape(name)}(?=[\s/>])[^>]*>", re.IGNORECASE)
