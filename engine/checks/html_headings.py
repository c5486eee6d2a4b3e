"""Headings written as HTML in a text a reader sees rendered: ``<h2>Risks</h2>`` in a
Markdown response, or any heading of an HTML file.

``section`` and ``headings`` read Markdown's own headings (``## Risks``, an ``===``
underline). A Markdown renderer and a browser show an HTML heading as a heading all
the same, so a text holding one has a section, or an end of one, those readers do not
see: ``not (section(response, "Risks") contains "secret")`` passed, as a section found
nowhere, over ``<h2>Risks</h2>`` followed by the secret. Such a heading is found here,
outside fenced code, HTML comments and code spans, so the checks can say so."""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from typing import Callable, Iterable, Sequence

from referee.dsl.frozen import frozen
from referee.engine.budget import spend
from referee.engine.checks.markdown_lines import Line
from referee.engine.values import EvalError, render, short

_OPEN = re.compile(r"<h([1-6])(?=[\s/>])", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_TICKS = re.compile(r"`+")
_INDENTED = re.compile(r"(?: {4}|\t)")
_TITLE_LIMIT = 2000  # characters a heading's title is looked for in; past them it is not known


@frozen
class HtmlHeading:
    """An HTML heading: the index of the line it opens on, its level, its title as
    shown (tags left out, character references read) and its text as written."""

    line: int
    level: int
    title: str | None  # None: no closing tag was found near, so its title is not known
    written: str


def html_headings(lines: Sequence[Line], whole_html: bool) -> Iterable[HtmlHeading]:
    """Every HTML heading of ``lines`` outside fenced code, HTML comments and code spans,
    in order. In Markdown (``whole_html`` false) a line indented as code holds none.
    Work linear in the text: each opening tag looks at most ``_TITLE_LIMIT`` characters
    on, and each ``>`` is searched for once, so a line of a million ``<h2 `` takes no
    quadratic time."""
    for index, line in enumerate(lines):
        if (line.hidden and line.raw not in ("pre", "html")) or line.fence or "<" not in line.text:
            continue  # a <pre> element's or an HTML block's tags are read: a browser shows a heading there too
        if not whole_html and _INDENTED.match(line.text):
            continue
        text = line.text if whole_html else without_code_spans(line.text)
        tag_end = -2  # the last ``>`` found (-2: none looked for yet; -1: none is left)
        for found in _OPEN.finditer(text):
            if tag_end != -1 and tag_end < found.end():
                tag_end = text.find(">", found.end())
            if tag_end == -1:
                break  # no tag closes: no heading opens here or later on this line
            inner = _inner(lines, index, tag_end + 1, found.group(1))
            title = None if inner is None else " ".join(html.unescape(_without_tags(inner)).split())
            opened = text[found.start():tag_end + 1][:_TITLE_LIMIT]
            yield HtmlHeading(index, int(found.group(1)), title, opened + (inner or ""))


def _without_tags(text: str) -> str:
    """``text`` without its tags (``_TAG``). Past the last ``>`` no tag can close, so
    that part is left as it is: each ``<`` there would be read to the end, a time
    growing with the square of their number."""
    closed = text.rfind(">") + 1
    return _TAG.sub("", text[:closed]) + text[closed:]


def without_code_spans(text: str) -> str:
    """``text`` with each code span (a run of backticks, to the next run as long)
    blanked. Linear in the text, give or take a logarithm: each run is looked up once,
    never searched for again, whatever the runs a hostile line holds."""
    runs = [(found.start(), found.end()) for found in _TICKS.finditer(text)]
    if len(runs) < 2:
        return text
    by_length: dict[int, list[int]] = {}
    for k, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(k)
    out, k, done = [], 0, 0
    while k < len(runs):
        start, end = runs[k]
        same = by_length[end - start]
        at = bisect_right(same, k)
        if at == len(same):  # no closing run: these backticks are text
            k += 1
            continue
        close = same[at]
        out.append(text[done:start] + " " * (runs[close][1] - start))
        done, k = runs[close][1], close + 1
    return "".join(out) + text[done:]


def _inner(lines: Sequence[Line], index: int, start: int, level: str) -> str | None:
    """The text from ``start`` in line ``index`` to the heading's closing tag, across
    lines when it is on a later one; None (a title not known) when no closing tag comes
    within ``_TITLE_LIMIT`` characters. The characters read up to the closing tag are
    steps of the assertion's budget: headings opened close together, each read to a
    far closing tag, would read the same text again and again."""
    close = re.compile(rf"</h{level}\s*>", re.IGNORECASE)
    held = lines[index].text[start:start + _TITLE_LIMIT]
    for later in lines[index + 1:index + _TITLE_LIMIT]:
        if close.search(held) or len(held) >= _TITLE_LIMIT:
            break
        held += "\n" + later.text[:_TITLE_LIMIT]
    found = close.search(held[:_TITLE_LIMIT])
    spend(found.end() if found else min(len(held), _TITLE_LIMIT), "reading the titles of headings written in HTML")
    return held[:found.start()] if found else None


def no_html_heading(label: str, lines: Sequence[Line], whole_html: bool, title: str, plain: Callable[[str], str],
                    section: tuple[int, int, int] | None, place: Callable[[int], str]) -> None:
    """Raise when an HTML heading of ``lines`` is titled ``title`` (``plain`` the form
    titles are compared in) or may be, or lies in the ``section`` found (its first and
    end line and level) at its level or above, which ends it there: which section is
    meant, or where it ends, cannot be decided."""
    wanted = plain(title)
    for heading in html_headings(lines, whole_html):
        written = short(render(heading.written), 60)
        if heading.title is None or plain(heading.title) == wanted:
            raise EvalError(f"{label} has a heading titled {render(title)} written in HTML ({written} "
                            f"at {place(heading.line)}), which is no Markdown heading: which section is "
                            f"{render(title)} cannot be decided")
        if section is not None and section[0] <= heading.line < section[1] and heading.level <= section[2]:
            raise EvalError(f"the section {render(title)} of {label} holds a heading written in HTML "
                            f"({written} at {place(heading.line)}), which is no Markdown "
                            "heading: where the section ends cannot be decided")


def no_html_headings(label: str, lines: Sequence[Line], whole_html: bool, place: Callable[[int], str]) -> None:
    """Raise when ``lines`` hold an HTML heading: the headings read are not all there are."""
    heading = next(iter(html_headings(lines, whole_html)), None)
    if heading is not None:
        raise EvalError(f"{label} holds a heading written in HTML ({short(render(heading.written), 60)} at "
                        f"{place(heading.line)}), which is no Markdown heading: its headings cannot all be read")
