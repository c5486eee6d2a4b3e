"""Preformatted text written in HTML inside Markdown, as a reader of the rendered text
sees it: ``<pre><code>rm -rf /</code></pre>`` shows "rm -rf /" as a code block.

A line that opens with ``<pre`` (after at most three spaces, past a list item's or a
block quote's marker) starts an HTML block that runs to the line holding ``</pre>``,
else to the end of its container (CommonMark 0.31, HTML blocks, start condition 1):
its lines are passed to the browser as written, which shows the element's text as
preformatted code. What it shows is read here as the HTML parsing algorithm reads it:
tags left out (``<code>``, ``<b>``, over lines too), comments and the elements that
hide what they hold (``<script>`` ...) left out, character references decoded
(``&lt;`` shows ``<``, ``&amp;`` ``&``), and the one line break right after ``<pre>``
dropped."""

from __future__ import annotations

import re
import html

from referee.engine.checks.markdown_marks import HIDDEN_ELEMENTS

# The opening of a ``<pre>`` element: its name followed by a blank, ``>`` or the end of
# the line (CommonMark 0.31, start condition 1; ``<prefix>`` opens none).
PRE_OPEN = re.compile(r"<pre(?=[ \t>]|\Z)", re.IGNORECASE)
PRE_CLOSE = re.compile(r"</pre>", re.IGNORECASE)
# A start tag's end: its ``>`` past any quoted attribute value, which may hold one.
_TAG_END = re.compile(r"""(?:[^>"']++|"[^"]*+"|'[^']*+')*+>""")
# A comment as the HTML parser reads one: ``<!-->`` and ``<!--->`` close at once, else
# at the first ``-->`` or ``--!>``; one that nothing closes hides the rest.
_COMMENT = re.compile(r"<!--(?:>|->|.*?(?:--!?>|\Z))", re.DOTALL)


# A tag: ``<`` and a letter, or ``</`` and one; it ends at the next ``>``.
_TAG = re.compile(r"<(/?)([A-Za-z][^\s/>]*+)")


def _shown(inner: str) -> str:
    """What ``inner`` (an element's content, its comments left out) shows: its text
    between tags, the content of elements that hide it left out, references decoded.
    Linear in the text: each ``>`` and each closing tag is searched for once, however
    many tags a hostile text opens and leaves open."""
    lower = inner.lower()
    out: list[str] = []
    at = pos = 0
    close = -1  # the next ">" found (its place, when at or after pos)
    while (found := _TAG.search(inner, pos)) is not None:
        if close < found.end():
            close = inner.find(">", found.end())
        out.append(inner[at:found.start()])
        if close < 0:  # a tag the text ends in is no text
            return html.unescape("".join(out))
        name = found.group(2).lower()
        at = pos = close + 1
        if not found.group(1) and name in HIDDEN_ELEMENTS:
            end = lower.find(f"</{name}", pos)
            at = pos = len(inner) if end < 0 else end
    out.append(inner[at:])
    return html.unescape("".join(out))


def pre_shown(raw: str) -> tuple[int, str]:
    """What the ``<pre>`` element written at the start of ``raw`` shows, up to its
    ``</pre>`` or the end of ``raw``: (the line breaks of ``raw`` before its first line,
    its text). Its start tag may go on over lines (a line ending ``<pre``, the next
    ``class="x">``), as a browser reads it: a line may open the element so."""
    assert raw[:4].lower() == "<pre"
    tag = _TAG_END.match(raw, 4)
    start = tag.end() if tag is not None else len(raw)
    close = PRE_CLOSE.search(raw, start)
    inner = raw[start:close.start() if close is not None else len(raw)]
    if inner.startswith("\n"):  # the HTML parser drops a line break right after <pre>
        inner, start = inner[1:], start + 1
    text = _shown(_COMMENT.sub("", inner))
    return raw.count("\n", 0, start), text[:-1] if text.endswith("\n") else text
