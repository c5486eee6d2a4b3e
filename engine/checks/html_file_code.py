"""The code blocks of an HTML file (``.html``, ``.htm``, ``.xhtml``, ``.svg``), as a browser
shows them: each ``<pre>`` element, wherever it stands on its line or however far it is
indented, its text read as ``html_pre`` reads it.

HTML has no fences and no indented code: a line of backticks, or one indented four
spaces, is shown as written text. A ``<pre>`` inside a comment (``<!--``, or what the
HTML parser reads as one: ``<?``, ``<!``), or inside an element that hides what it holds
(``<script>``, ``<style>``, ``<template>``, ``<noscript>``, ``<textarea>``, whose text is no
code, ``<title>`` ...), is none. Where a ``<pre>`` start tag cannot be read so (``<pre``
and a line break), a ``<pre>`` stands inside another (whose end its ``</pre>`` is not),
or an element shown as preformatted by its obsolete name (``<xmp>``, ``<listing>``,
``<plaintext>``) stands, which blocks a browser shows cannot be told: an ERROR."""

from __future__ import annotations

import re
from typing import Callable, Iterator

from referee.engine.checks.html_pre import PRE_OPEN, pre_shown
from referee.engine.checks.html_shown import BOGUS_COMMENT, comment_end, hides, last_comment_close
from referee.engine.checks.markdown_marks import HIDDEN_ELEMENTS
from referee.engine.values import EvalError

_TOKEN = re.compile(rf"<!--|{BOGUS_COMMENT}|<(/?)([A-Za-z][^\s/>]*+)")
# A start tag's end: its ``>`` past any quoted attribute value, which may hold one.
_TAG_END = re.compile(r"""(?:[^>"']++|"[^"]*+"|'[^']*+')*+>""")
_PRE_CLOSE = re.compile(r"</pre(?=[\s/>]|\Z)", re.IGNORECASE)
_PRE_START = re.compile(r"<pre(?=[\s/>]|\Z)", re.IGNORECASE)
_OBSOLETE_PRE = ("xmp", "listing", "plaintext")


Place = Callable[[int], str]  # where a line (0-based) of the text stands, as a message cites it


def html_code(label: str, text: str, place: Place) -> list[tuple[int, str]]:
    """Each ``<pre>`` element of the HTML ``text`` a browser shows: the line (0-based) its
    text starts on, and its text; raise where which blocks are shown cannot be told."""
    text = re.sub(r"\r\n?", "\n", text)
    blocks: list[tuple[int, str]] = []
    line = at = 0  # the lines counted so far, to ``at``: each is counted once
    for start, end in _pre_elements(label, text, place):
        line, at = line + text.count("\n", at, start), start
        skipped, shown = pre_shown(text[start:end])
        blocks.append((line + skipped, shown))
    return blocks


def _pre_elements(label: str, text: str, place: Place) -> Iterator[tuple[int, int]]:
    """Where each shown ``<pre>`` element starts and ends (past its ``</pre>``, else the
    end of the text)."""
    last = last_comment_close(text, 0, len(text))
    lower = text.lower()
    pos = 0
    while (found := _TOKEN.search(text, pos)) is not None:
        name = (found.group(2) or "").lower()
        if found.group() == "<!--":
            pos = comment_end(text, found.start(), len(text), last)
            continue
        if not name:  # a bogus comment, to its first ">"
            close = text.find(">", found.end())
            pos = len(text) if close < 0 else close + 1
            continue
        tag = _TAG_END.match(text, found.end())  # a tag nothing ends runs to the end: no text
        after = tag.end() if tag is not None else len(text)
        if found.group(1):
            pos = after
        elif name in _OBSOLETE_PRE:
            raise _unread(label, text, found.start(), place, f"a <{name}> element, shown as preformatted text,")
        elif name == "pre":
            if PRE_OPEN.match(text, found.start()) is None:
                raise _unread(label, text, found.start(), place, "a <pre> start tag written over lines")
            ended = _PRE_CLOSE.search(text, after)
            pos = len(text) if ended is None else (_TAG_END.match(text, ended.end()) or ended).end()
            inner = _PRE_START.search(text, after, ended.start() if ended is not None else len(text))
            if inner is not None:  # its first </pre> ends the inner one: where the outer ends is not read
                raise _unread(label, text, inner.start(), place, "a <pre> element inside another")
            yield found.start(), pos
        elif name in HIDDEN_ELEMENTS + ("textarea",) or hides(name, text[found.start():after]):
            close = lower.find(f"</{name}", after)
            pos = len(text) if close < 0 else close
        else:
            pos = after


def _unread(label: str, text: str, at: int, place: Place, what: str) -> EvalError:
    return EvalError(f"{label} holds {what} (at {place(text.count(chr(10), 0, at))}), which a browser shows in "
                     "a way not read here: its code blocks cannot all be read")
