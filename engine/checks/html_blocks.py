"""Quotes, rules and code written as HTML in a Markdown text, as a reader of the rendered
text sees them: ``<blockquote>`` shows a block quote, ``<hr>`` a rule, ``<pre>`` code.

A Markdown renderer passes such tags to the browser as written (CommonMark 0.31, HTML
blocks, start conditions 1 and 6, and raw HTML inside a paragraph), and the browser
shows a quote, a rule or preformatted text wherever they stand. They are looked for
outside code blocks (fenced, indented, ``<pre>``), HTML comments that open a line, and
code spans: there they are shown as written.

- ``<blockquote>`` (``quotes``): the text up to its matching ``</blockquote>``, else to
  the end of the text, is a quote, as written; one inside another is part of it.
- ``<hr>``, ``<hr/>``, ``<hr />`` alone on its line (``parts``) is a rule; one written
  beside other text splits that line, which a reading by lines cannot do: an ERROR.
- ``<pre>`` that opens no line (``code``) stands inside a paragraph, where ``codeblocks``
  reads no block: an ERROR, since a browser shows it as one all the same."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Callable, Iterator, Protocol, Sequence

from referee.dsl.frozen import frozen
from referee.engine.checks.html_headings import without_code_spans
from referee.engine.checks.markdown_lines import Line
from referee.engine.values import EvalError

_BLOCKQUOTE = re.compile(r"<(/?)blockquote(?=[\s/>]|\Z)[^>]*+>?", re.IGNORECASE)
_HR = re.compile(r"<hr(?=[\s/>]|\Z)", re.IGNORECASE)
# An ``<hr>`` alone on its line, past any indentation and list item markers (``- <hr>`` shows
# an item holding a rule): a reader sees the text split at that line.
_HR_LINE = re.compile(r"[ \t]*+(?:(?:[-*+]|\d{1,9}[.)])[ \t]++)*+<hr(?:\s[^<>]*+)?/?>\s*\Z", re.IGNORECASE)
# A backslash escape in Markdown text: ``\<pre>`` shows the text "<pre>", no element; in a
# line that opens with a tag (an HTML block's) a backslash is shown as written.
_ESCAPE = re.compile(r"\\[\\<]")
_TAG_LINE = re.compile(r" {0,3}<")
_PRE = re.compile(r"<pre(?=[\s/>]|\Z)", re.IGNORECASE)
_COMMENT = re.compile(r"<!--(?:>|->|.*?-->)", re.DOTALL)


class _Code(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def last(self) -> int: ...
    @property
    def html(self) -> bool: ...


@frozen
class Shown:
    """The lines of a text as joined by ``\\n`` (``text``), where each starts, and the same
    text with what is shown as written blanked (``scan``): code, comments, code spans."""

    text: str
    starts: tuple[int, ...]
    scan: str

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1


def shown(lines: Sequence[Line], code: Sequence[_Code], pre_too: bool = True) -> Shown:
    """``lines`` with their code blocks (``pre_too``: a ``<pre>`` element's too), the
    HTML comments that open a line and code spans blanked, for tags to be found in."""
    covered: set[int] = set()
    for block in code:
        if pre_too or not block.html:
            covered.update(range(block.start, block.last + 1))
    starts: list[int] = []
    scan: list[str] = []
    at = 0
    for line in lines:
        starts.append(at)
        at += len(line.text) + 1
        hide = line.comment or line.raw not in ("", "pre", "html") or line.number in covered
        scan.append(" " * len(line.text) if hide else _without_escapes(line, without_code_spans(line.text)))
    return Shown("\n".join(line.text for line in lines), tuple(starts), _without_comments("\n".join(scan)))


def _without_escapes(line: Line, scan: str) -> str:
    """``scan`` (a line outside code and comments) with its backslash escapes of ``<`` and
    ``\\`` blanked, where Markdown reads them: not in a raw HTML block's lines."""
    if "\\" not in scan or line.raw or _TAG_LINE.match(line.text):
        return scan
    return _ESCAPE.sub("  ", scan)


def _without_comments(scan: str) -> str:
    """``scan`` with each closed HTML comment inside a line or a paragraph blanked (one a
    line opens is already): a tag there is never shown. One that nothing closes is shown
    as written, so none is looked for past the last ``-->``; each character is read once."""
    last = scan.rfind("-->")
    if last < 0:
        return scan
    return _COMMENT.sub(lambda found: _blank(found.group()), scan[:last + 3]) + scan[last + 3:]


def _blank(text: str) -> str:
    """``text`` with every character but its line breaks as a space: places stay."""
    return re.sub(r"[^\n]", " ", text)


def quote_lines(lines: Sequence[Line], code: Sequence[_Code]) -> list[tuple[int, list[str]]]:
    """Each outermost ``<blockquote>`` element of ``lines`` (a ``<pre>`` element's tags are
    read: a browser shows a quote there too): the line its content starts on, and its
    content's lines, as written."""
    text = shown(lines, code, pre_too=False)
    return [(text.line_of(start), text.text[start:end].split("\n")) for start, end in _html_quotes(text)]


def rule_lines(label: str, lines: Sequence[Line], code: Sequence[_Code], place: Callable[[int], str]) -> set[int]:
    """The lines that are an ``<hr>`` alone; raise when one stands beside other text,
    which splits its line where a reading by lines cannot."""
    alone, mixed = _html_rules(shown(lines, code, pre_too=False))
    if mixed is not None:
        raise EvalError(f"{label} holds a rule written in HTML beside other text on its line (<hr> at "
                        f"{place(mixed)}), which a reader sees split there: its parts cannot all be read")
    return alone


def no_unread_pre(label: str, lines: Sequence[Line], code: Sequence[_Code], place: Callable[[int], str]) -> None:
    """Raise when a ``<pre>`` element stands outside every code block read (it opens no
    line): a reader sees a code block there that ``code`` does not give."""
    unread = _unread_pre(shown(lines, code))
    if unread is not None:
        raise EvalError(f"{label} holds a <pre> element that opens no line (at {place(unread)}), which a "
                        "reader sees as a code block: its code blocks cannot all be read")


def _html_quotes(text: Shown) -> Iterator[tuple[int, int]]:
    """Each outermost ``<blockquote>`` element: where its content starts and ends in
    ``text.text``; one not closed runs to the end of the text."""
    depth, start = 0, 0
    for found in _BLOCKQUOTE.finditer(text.scan):
        if not found.group(1):
            depth += 1
            if depth == 1:
                start = found.end()
        elif depth:
            depth -= 1
            if not depth:
                yield start, found.start()
    if depth:
        yield start, len(text.text)


def _html_rules(text: Shown) -> tuple[set[int], int | None]:
    """The lines that are an ``<hr>`` alone, and the first line holding one beside other
    text (None when none does)."""
    alone: set[int] = set()
    for found in _HR.finditer(text.scan):
        number = text.line_of(found.start())
        end = text.scan.find("\n", found.start())
        line = text.scan[text.starts[number]:end if end >= 0 else len(text.scan)]
        if _HR_LINE.match(line) is None:
            return alone, number
        alone.add(number)
    return alone, None


def _unread_pre(text: Shown) -> int | None:
    """The line of the first ``<pre>`` outside every code block (one that opens no line),
    None when there is none."""
    found = _PRE.search(text.scan)
    return None if found is None else text.line_of(found.start())
