"""Markdown as a reader of it rendered sees it: the text its markup shows.

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
- inline HTML tags and HTML comments, left out;
- invisible format characters, left out (``folding.INVISIBLE``), in code too.

Code shows what is written: fenced code (``` ``` ``` or ``~~~``, the fences
``checks.textparts`` reads; an unclosed fence runs to the end) and code spans (a run
of backticks to the next run of as many; an unclosed run is written as it is).
Indented code blocks are read as text.

Some markup hides what it holds (``hidden_in_markdown``): an HTML comment, and an HTML
tag with its attributes (``<span title="disclaimer">``), show nothing at all, so a hit
only there is no hit a reader grants either. Character references, escapes and
emphasis markers hide nothing: they show as something else, or as nothing, but never
hold words a reader would have to see.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Iterator

import regex

from referee.engine.checks.folding import INVISIBLE, as_seen, kept_form, text_form
from referee.engine.text import line_breaks, line_end
from referee.engine.values import EvalError, Prov, Val, render, short

# A character that starts markup this module reads: a text without any is shown as
# written (save invisible characters, which ``folding.as_seen`` leaves out), and is
# never rendered.
_MARKUP = re.compile(r"[&\\*_~<]")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$", re.MULTILINE)
# A line that opens fenced code, or an HTML block that runs to an end condition
# (CommonMark 0.31, start conditions 1 and 2), inside a block quote or list item too.
_CONTAINER = r"(?:[ \t]{0,3}(?:>[ \t]?|[-+*][ \t]+|[0-9]{1,9}[.)][ \t]+))*"
_BLOCK = re.compile(rf"^(?: {{0,3}}(?P<fence>`{{3,}}|~{{3,}})(?P<info>.*)$"
                    rf"|{_CONTAINER} {{0,3}}(?P<html><!--|<(?:script|style|pre|textarea)(?=[ \t>]|$)))",
                    re.MULTILINE | re.IGNORECASE)
_RAW_END = re.compile(r"</(?:script|style|pre|textarea)>", re.IGNORECASE)
_TICKS = re.compile(r"`+")
_TOKEN = regex.compile(r"""
    (?P<escape>\\[!-/:-@\[-`{-~])
  | (?P<ticks>`+)
  | (?P<comment><!--)
  | (?P<entity>&(?:\#[0-9]{1,7}|\#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)
  | (?P<tag></?[A-Za-z][A-Za-z0-9-]*(?:[ \t\r\n/][^<>]*)?>)
  | (?P<delimiters>[*_~]+)
  | (?P<invisible>\p{Cf})
""", regex.VERBOSE)
_NAME_SUFFIXES = (".md", ".markdown")
# What an import writes where its source named a path (``importers.homes.HOME``, the
# session's folder ``importers.claude_code.CWD``): words standing for the path a reader
# saw, never a tag, though written like one.
PATH_PLACEHOLDERS = ("<home>", "<cwd>")
# A call's args and return (JSON or a program's text), and text the harness gave the
# agent (a prompt, a reminder's <system-reminder>, a hook's output): the model reads
# that as it is written, comments and tags included, so it is never rendered.
_NO_MARKDOWN = ("tool_calls", "suspect_calls", "harness")


def is_markdown(text: str, prov: Prov | None) -> bool:
    """Whether ``text`` is read from Markdown: a ``.md`` or ``.markdown`` file of the
    run (the response, an executor log's section, an agent's note, a file the rules
    read), not a tool call's fields, the harness's text, nor an output's name
    (``outputs``: the text that is its file's own name)."""
    if prov is None or not prov.file or prov.source in _NO_MARKDOWN:
        return False
    if not prov.file.lower().endswith(_NAME_SUFFIXES):
        return False
    return not prov.file.endswith("/" + text)


def may_show_otherwise(text: str) -> bool:
    """Whether ``text`` holds a character markup starts with: else it is shown as written."""
    return _MARKUP.search(text) is not None


@dataclass(frozen=True)
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


Mark = tuple[int, int, str, str]  # start and end in the text as written, what it shows, and its kind


def shown_as_markdown(text: str) -> Shown:
    """``text`` (Markdown) as shown: code as written, markup elsewhere as it shows.
    Made once for the run's checks that miss in a long text (``folding.kept_in``)."""
    return kept_form("markdown", text, _shown)


def _shown(text: str) -> Shown:
    pieces: list[str] = []
    at: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    kinds: list[str] = []
    size = 0
    for start, end, code in _blocks(text):
        for begin, stop, made, kind in (_invisible(text, start, end) if code else _inline(text, start, end)):
            pieces += (text[start:begin], made)
            at.append(size + begin - start)
            starts.append(begin)
            ends.append(stop)
            kinds.append(kind)
            size += begin - start + len(made)
            start = stop
        pieces.append(text[start:end])
        size += end - start
    return Shown("".join(pieces), tuple(at), tuple(starts), tuple(ends), tuple(kinds))


def _blocks(text: str) -> Iterator[tuple[int, int, bool]]:
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


def _opens_block(text: str, start: int) -> bool:
    """Whether the markup at ``start`` opens its line, after at most three spaces or a
    block quote's or list item's marker: then it opens an HTML block."""
    found = _BLOCK.match(text, text.rfind("\n", 0, start) + 1)
    return found is not None and found.start("html") == start


def _invisible(text: str, start: int, end: int) -> Iterator[Mark]:
    for found in INVISIBLE.finditer(text, start, end):
        yield found.start(), found.end(), "", "invisible"


def _inline(text: str, start: int, end: int) -> Iterator[Mark]:
    """The markup between ``start`` and ``end`` (text that is no fenced code)."""
    closes = _closing_runs(text, start, end)
    comment_end = text.rfind("-->", start, end)  # no comment opened after it closes
    at = start
    while True:
        found = _TOKEN.search(text, at, end)
        if found is None:
            return
        kind, at = found.lastgroup, found.end()
        if kind == "ticks":
            close = _close_of(closes, found)
            if close is not None:  # a code span: shown as written, save invisible characters
                yield from _invisible(text, found.end(), close)
                at = close + len(found.group())
        elif kind == "comment":
            at = _comment_end(text, found.start(), end, comment_end)
            if at > found.end():
                yield found.start(), at, "", "comment"
            else:
                at = found.end()
        else:
            shows = _shows(text, found, kind, start, end)
            if shows is not None:
                yield found.start(), found.end(), shows, kind or ""


def _comment_end(text: str, start: int, end: int, last: int) -> int:
    """Where the comment opened at ``start`` ends: after its ``-->`` (``<!-->`` is one, as
    browsers read it), or, when none follows (``last``, the last one, stands before),
    with the text when it opens its line (an HTML block to the end), else nowhere
    (-1: inside a paragraph it is text)."""
    close = text.find("-->", start + 2, end) if start < last else -1
    if close >= 0:
        return close + 3
    return end if _opens_block(text, start) else -1


def _shows(text: str, found: regex.Match, kind: str | None, start: int, end: int) -> str | None:
    """What a piece of markup shows, None for what is shown as written."""
    written = found.group()
    if kind == "escape":
        return written[1]
    if kind == "entity":
        character = html.unescape(written)
        return None if character == written else as_seen(character)
    if kind == "delimiters":
        return "" if _emphasis(text, found.start(), found.end(), start, end) else None
    if kind == "tag" and written in PATH_PLACEHOLDERS:
        return None
    return ""  # a tag, an invisible character


def _emphasis(text: str, start: int, end: int, low: int, high: int) -> bool:
    """Whether the run of ``*``, ``_`` or ``~`` from ``start`` to ``end`` may open or
    close emphasis: it touches a word, and is no ``_`` inside one."""
    before = text[start - 1] if start > low else " "
    after = text[end] if end < high else " "
    if before.isspace() and after.isspace():
        return False
    return not (set(text[start:end]) == {"_"} and before.isalnum() and after.isalnum())


# The markup that hides what it holds, and how a message names it.
_HIDING = {"comment": "an HTML comment", "tag": "an HTML tag"}


@dataclass(frozen=True)
class Hidden:
    """A Markdown text with what no reader of it sees left out (``_HIDING``: HTML comments
    and tags outside code), and each piece left out: where it starts and ends in the text
    as written, and what it is."""

    text: str
    start: tuple[int, ...]
    end: tuple[int, ...]
    kind: tuple[str, ...]

    def piece_near(self, offset: int) -> int:
        """The index of the first piece that ends after ``offset`` of the text as written
        (the one holding it, or the next), else the last: where a hit there is hidden."""
        return min(bisect_right(self.end, offset), len(self.end) - 1)

    def place_of(self, piece: int, offset: int) -> int:
        """Where to cite piece ``piece`` for a hit at ``offset``: there, when the piece holds
        it (a comment over lines is cited at the line of the words), else where it starts."""
        return offset if self.start[piece] <= offset < self.end[piece] else self.start[piece]

    def named(self, piece: int) -> str:
        return _HIDING[self.kind[piece]]


def hidden_in_markdown(text: str) -> Hidden | None:
    """``text`` (Markdown) without its HTML comments and tags, None when it holds none.
    Only a text holding ``<`` is read: no comment or tag starts otherwise."""
    if "<" not in text:
        return None
    form = kept_form("markdown hidden", text, _without_hidden)
    return form if form.start else None


def _without_hidden(text: str) -> Hidden:
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    kinds: list[str] = []
    at = 0
    for start, end, code in _blocks(text):
        if code:
            continue
        for begin, stop, _, kind in _inline(text, start, end):
            if kind in _HIDING:
                pieces.append(text[at:begin])
                starts.append(begin)
                ends.append(stop)
                kinds.append(kind)
                at = stop
    pieces.append(text[at:])
    return Hidden("".join(pieces), tuple(starts), tuple(ends), tuple(kinds))


def _closing_runs(text: str, start: int, end: int) -> dict[int, list[int]]:
    """Where each run of backticks starts, by its length: a code span's closing run is
    the next of as many, found without reading the text again."""
    runs: dict[int, list[int]] = {}
    for found in _TICKS.finditer(text, start, end):
        runs.setdefault(len(found.group()), []).append(found.start())
    return runs


def _close_of(closes: dict[int, list[int]], opening: re.Match | regex.Match) -> int | None:
    starts = closes.get(len(opening.group()), [])
    i = bisect_right(starts, opening.start())
    return starts[i] if i < len(starts) else None


def place_in(val: Val, offset: int) -> str:
    """Where offset ``offset`` of the text value ``val`` stands: its file and line, when known."""
    prov = val.prov
    if prov is None or not prov.file:
        return prov.where() if prov else val.label
    return Prov(prov.source, "", prov.file, (prov.line or 1) + line_breaks(val.value, 0, offset)).where()


def not_equal_as_shown(left: Val, right: Val, ignore_case: bool) -> None:
    """Raise when two texts that differ as written (``==`` is false) are the same as
    their reader sees them, a Markdown text as shown (``**Done**`` and ``Done``, ``All
    done. <!-- x -->`` and ``All done.``): whether they are equal cannot be decided."""
    sides = [(side, shown_form(side)) for side in (left, right)]
    marked = [(side, found) for side, found in sides if found is not None]
    if not marked or not all(isinstance(side.value, str) for side, _ in sides):
        return
    seen = [compared(found) if found is not None else as_seen(side.value) for side, found in sides]
    if text_form(seen[0], ignore_case) != text_form(seen[1], ignore_case):
        return
    side, form = marked[0]
    raise EvalError(f"{short(render(left.value), 60)} and {short(render(right.value), 60)} are equal only as "
                    f"Markdown is shown ({_cited(side, form)}): a reader sees the same words, so whether they "
                    "are equal cannot be decided")


def _cited(side: Val, form: Shown) -> str:
    """The markup an ERROR about ``side`` names: its first hidden place, else its first markup."""
    hidden = [i for i, kind in enumerate(form.kind) if kind in _HIDING]
    piece = hidden[0] if hidden else 0
    what = _HIDING[form.kind[piece]] if hidden else "the first markup"
    markup = side.value[form.start[piece]:form.end[piece]]
    return f"{what}, {short(render(markup), 40)}, at {place_in(side, form.start[piece])}"


def compared(form: Shown) -> str:
    """The text shown as ``==`` compares it: the blank on either side of a hidden place
    shows once, the one holding more line breaks (else the longer), and none at the
    text's start or end, where a reader sees no blank (``All done. <!-- x -->`` shows
    ``All done.``). Only a text holding ``<`` has a hidden place."""
    text = form.text
    places = {at for at, kind in zip(form.at, form.kind) if kind in _HIDING}
    for at in sorted(places, reverse=True):
        begin, end = _blank_before(text, at), _blank_after(text, at)
        before, after = text[begin:at], text[at:end]
        if begin == 0 or end == len(text):
            kept = before if begin == 0 else after  # the outer blank: the text's own
        else:
            kept = max(before, after, key=lambda blank: (blank.count("\n"), len(blank)))
        text = text[:begin] + kept + text[end:]
    return text


def _blank_before(text: str, at: int) -> int:
    while at > 0 and text[at - 1].isspace():
        at -= 1
    return at


def _blank_after(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def shown_text(val: Val) -> str | None:
    """The text value ``val`` as shown and compared (``compared``), when it is Markdown
    holding markup that shows otherwise than it is written; else None (a value read as
    written)."""
    form = shown_form(val)
    return compared(form) if form is not None else None


def shown_form(val: Val) -> Shown | None:
    """The text value ``val`` as shown when it is Markdown holding markup that shows
    otherwise than it is written; else None (a value read as written)."""
    text = val.value
    if not (isinstance(text, str) and is_markdown(text, val.prov) and may_show_otherwise(text)):
        return None
    form = shown_as_markdown(text)
    return form if form.at else None
