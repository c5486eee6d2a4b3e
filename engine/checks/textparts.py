"""Parts of a text, as the people who write responses delimit them: ``section(x,
"title")`` (the text under a Markdown heading), ``parts(x)`` (between ``---``
rules), ``quotes(x)`` (block quotes), ``code(x)`` (code blocks, read by
``codeblocks``) and ``headings(x)``; quotes, rules and code written as HTML
(``<blockquote>``, ``<hr>``, ``<pre>``) are read by ``html_blocks``, the lines
themselves by ``markdown_lines``; the ``words(x)`` and ``numbers(x)`` in it are
``textwords``'.

Every part is a value with its own place: its first line in the file the text was
read from, so a check on ``section(response, "Summary")`` cites the line of the
response where the words are, and ``lines(...)`` of a part counts from there.

The Markdown read here is what responses use, kept predictable rather than
complete: ATX headings (``## Title``) and ``===`` underlines; a line of three or
more ``-``, ``*`` or ``_`` is a rule, even right under a line of text; fenced code
(```` ``` ```` or ``~~~``) hides headings, rules and quotes inside it, and so does an
HTML comment that opens a line (``<!--``, to the line holding ``-->``), which a reader
of the rendered text never sees: a heading there would stand for the section shown.
A heading whose title a reader sees as the one asked for, though it is written otherwise
(invisible characters, or Markdown markup in a Markdown text: ``## Q&amp;A`` for "Q&A"),
leaves which section is meant undecided when it is not the section found as written.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator


from referee.dsl.errors import suggest
from referee.engine.checks import html_blocks, html_file_code
from referee.engine.checks.codeblocks import code_blocks
from referee.engine.checks.folding import as_seen as seen_text, text_form
from referee.engine.checks.html_headings import no_html_heading, no_html_headings
from referee.engine.checks.markdown_lines import COMMENT, FENCE, Line, marked_lines, read_lines
from referee.engine.checks.markdown_seen import is_markdown, markup_of, may_show_otherwise, shown_as_markdown
from referee.engine.values import EvalError, Missing, Prov, Result, Val, render, type_name

_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*(?:[ \t]#+[ \t]*)?\Z")
# A setext heading's underline: ``===`` (level 1) or ``---`` (level 2, which after a
# paragraph's line is no thematic break: CommonMark 0.31, setext headings).
_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*\Z")
# A line that opens another block, so no line of a paragraph a setext underline makes
# a heading of: a list item, a block quote, an ATX heading, a table row, a fence.
_NOT_PARAGRAPH = re.compile(r" {0,3}(?:[-+*](?:[ \t]|\Z)|[0-9]{1,9}[.)](?:[ \t]|\Z)|>|#{1,6}(?:[ \t]|\Z)|\||```|~~~)")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*\Z")
_QUOTE = re.compile(r" {0,3}> ?")
_LIST_OR_QUOTE = re.compile(r" {0,3}(?:[-+*][ \t]+\S|[0-9]{1,9}[.)][ \t]+\S|>)")  # holding a paragraph
_NUMBERING = re.compile(r"(?<!\d)\d+[.)]\s+")  # from a number's first digit only: linear in a long one
_EMPHASIS = "*_`"
# ----------------------------------------------------------------------- values


def _part(arg: Val, label: str, lines: list[Line]) -> Val:
    """The text of ``lines`` (blank lines at either end left out) as a value placed
    at its first line."""
    start, end = 0, len(lines)  # indexes, not slices: a slice per blank line copied the rest again
    while start < end and not lines[start].text.strip():
        start += 1
    while end > start and not lines[end - 1].text.strip():
        end -= 1
    lines = lines[start:end]
    text = "\n".join(line.text for line in lines)
    first = lines[0].number if lines else 0
    return Val(text, placed_at(arg, label, first))


def placed_at(arg: Val, label: str, offset: int) -> Prov:
    """The provenance of a piece of ``arg`` that starts ``offset`` lines into it."""
    prov = arg.prov
    if prov is None:
        return Prov("none", label)
    line = (prov.line or 1) + offset if prov.file else None
    return Prov(prov.source, label, prov.file, line, prov.step)


def listed(arg: Val, name: str, items: list[Val]) -> Val:
    prov = arg.prov
    own = Prov(prov.source, f"{name}({arg.label})", prov.file, prov.line, prov.step) if prov else None
    return Val([item.value for item in items], own, tuple(items), arg.claims,
               empty="" if items else f"{arg.label} has no {_NOUNS[name]}")


_NOUNS = {"parts": "text between --- rules", "quotes": "block quote", "code": "fenced code",
          "headings": "heading", "words": "word", "numbers": "number"}


def need_text(arg: Val, name: str) -> str:
    if not isinstance(arg.value, str):
        raise EvalError(f"{name}() needs text, got {type_name(arg.value)} {render(arg.value)[:60]} "
                        f"({arg.label})")
    return arg.value


# --------------------------------------------------------------------- headings


def _heading(lines: list[Line], i: int) -> tuple[int, str] | None:
    """(level, title) when line ``i`` is a heading (or the text of an ``===``
    underline), else None."""
    line = lines[i]
    if line.hidden or line.fence:
        return None
    found = _HEADING.match(line.text)
    if found:
        return len(found.group(1)), (found.group(2) or "").strip()
    after = lines[i + 1] if i + 1 < len(lines) else None
    if after is not None and not after.hidden and not after.fence and _UNDERLINE.match(after.text) \
            and line.text.strip() and not _RULE.match(line.text) and not _NOT_PARAGRAPH.match(line.text):
        return 1 if "=" in after.text else 2, line.text.strip()
    return None


def _headings(lines: list[Line]) -> Iterator[tuple[int, int, str]]:
    """(line index, level, title) of every heading, in order."""
    for i in range(len(lines)):
        found = _heading(lines, i)
        if found is not None:
            yield i, found[0], found[1]


def _plain_title(title: str) -> str:
    """A title as compared: emphasis, a leading "1." and a trailing colon left out,
    whitespace collapsed, case ignored, letters in NFC (``folding.text_form``)."""
    text = " ".join(title.split()).strip(_EMPHASIS + " ")
    text = _NUMBERING.sub("", text, count=1).rstrip(":").strip(_EMPHASIS + " ")
    return text_form(text, True)


def section(arg: Val, title: Val) -> Result:
    """The text under the first heading titled ``title``, up to the next heading of
    the same or a higher level; Missing (with the headings there are) when none."""
    text = need_text(arg, "section")
    if not isinstance(title.value, str):
        raise EvalError(f"section() takes the title as text, got {type_name(title.value)}")
    lines = read_lines(text)
    found = section_lines(lines, title.value)
    _same_as_seen(arg, text, lines, title.value, found)
    _same_as_shown(arg, text, lines, title.value, found)
    _no_html_heading(arg, text, lines, title.value, found)
    if found is None:
        names = [name for _, _, name in _headings(lines)]
        return Missing(_no_section(arg, title.value, names), arg.prov, arg.claims)
    _one_so_titled(arg, lines, title.value, found)
    label = f"section({arg.label}, {render(title.value)})"
    return _part(arg, label, lines[found[0]:found[1]])


def _same_as_seen(arg: Val, text: str, lines: list[Line], title: str, found: tuple[int, int] | None) -> None:
    """An ERROR when the section titled ``title`` is another (or none) once the
    invisible format characters of the titles are left out: a reader sees a heading
    "Sum\u200bmary" as "Summary", so which section is meant cannot be decided."""
    if text.isascii() and title.isascii():
        return
    seen = section_lines(lines, title, as_seen=True)
    if seen == found:
        return
    heading = _heading_line(lines, min(at for at in (seen, found) if at is not None))
    place = placed_at(arg, arg.label, heading).where()
    raise EvalError(f"{arg.label} has a heading titled {render(title)} only with its invisible characters left "
                    f"out (at {place}): which section is {render(title)} cannot be decided")


def _same_as_shown(arg: Val, text: str, lines: list[Line], title: str, found: tuple[int, int] | None) -> None:
    """An ERROR when the first heading titled ``title`` as written or as its Markdown is
    shown (``## Q&amp;A`` shows "Q&A", ``## Sum*m*ary`` "Summary") is not the section
    found as written: a reader sees that heading so titled, so which section is meant
    cannot be decided."""
    if not (may_show_otherwise(text) and is_markdown(text, arg.prov)):
        return
    shown = section_lines(lines, title, as_shown=True)
    if shown is None or shown == found:
        return
    heading = _heading_line(lines, shown)
    name = _heading(lines, heading)
    written = render(name[1] if name else lines[heading].text.strip())
    place = placed_at(arg, arg.label, heading).where()
    raise EvalError(f"{arg.label} has a heading titled {render(title)} only as its Markdown is shown ({written} at "
                    f"{place}): which section is {render(title)} cannot be decided")


def _no_html_heading(arg: Val, text: str, lines: list[Line], title: str, found: tuple[int, int] | None) -> None:
    """An ERROR when a heading written in HTML is titled ``title`` or ends the section
    found (``html_headings``): a reader of the rendered text sees it as a heading."""
    if "<" not in text or not is_markdown(text, arg.prov):
        return
    named = _heading(lines, _heading_line(lines, found)) if found is not None else None
    span = (found[0], found[1], named[0]) if found is not None and named is not None else None
    no_html_heading(arg.label, lines, markup_of(arg.prov) == "HTML", title, _plain_title, span,
                    lambda i: placed_at(arg, arg.label, i).where())


def _one_so_titled(arg: Val, lines: list[Line], title: str, found: tuple[int, int]) -> None:
    """An ERROR when a heading after the one found is titled ``title`` too, and its
    section differs: a reader sees two sections so titled (``## Errors`` with "None."
    under it, then ``## Errors`` with "A timeout happened."), and which one the rule
    means cannot be told; ``not (section(response, "Errors") contains "timeout")``
    passed on the first."""
    wanted = _plain_title(title)
    first = _heading_line(lines, found)
    body = _body_text(lines, found)
    found_headings = list(_headings(lines))
    for k, (i, level, name) in enumerate(found_headings):
        if i <= first or _plain_title(name) != wanted:
            continue
        end = next((j for j, lvl, _ in found_headings[k + 1:] if lvl <= level), len(lines))
        other = (i + (2 if _underlined(lines, i) else 1), end)
        if _body_text(lines, other) != body:
            place, again = placed_at(arg, arg.label, first).where(), placed_at(arg, arg.label, i).where()
            raise EvalError(f"{arg.label} has two sections titled {render(title)} (at {place} and {again}), "
                            "which differ: which one the rule means cannot be told")


def _body_text(lines: list[Line], body: tuple[int, int]) -> str:
    return "\n".join(line.text for line in lines[body[0]:body[1]]).strip()


def _underlined(lines: list[Line], i: int) -> bool:
    return i + 1 < len(lines) and bool(_UNDERLINE.match(lines[i + 1].text))


def _heading_line(lines: list[Line], body: tuple[int, int]) -> int:
    """The line of the heading whose section's body is ``body`` (above an ``===`` underline)."""
    heading = body[0] - 1
    while heading > 0 and not lines[heading].text.strip(" =-\t"):
        heading -= 1
    return heading


def _shown_title(name: str) -> str:
    return shown_as_markdown(name).text if may_show_otherwise(name) else name


def section_lines(lines: list[Line] | str, title: str, as_seen: bool = False,
                  as_shown: bool = False) -> tuple[int, int] | None:
    """(first, end) line indexes of the body of the section ``title`` (``end``
    excluded), or None when there is no such heading; ``as_seen``: titles compared
    with their invisible format characters left out; ``as_shown``: a heading whose
    title, as written or as its Markdown is shown, is ``title``."""
    lines = marked_lines(lines) if isinstance(lines, str) else lines
    found = list(_headings(lines))
    seen = seen_text if as_seen else (lambda name: name)
    wanted = _plain_title(seen(title))
    for k, (i, level, name) in enumerate(found):
        if _plain_title(seen(name)) == wanted or (as_shown and _plain_title(_shown_title(name)) == wanted):
            end = next((j for j, lvl, _ in found[k + 1:] if lvl <= level), len(lines))
            return i + (2 if _underlined(lines, i) else 1), end
    return None


def _no_section(arg: Val, title: str, names: list[str]) -> str:
    if not names:
        return f"{arg.label} has no headings, so no section {render(title)}"
    near = suggest(title, names)
    shown = ", ".join(render(n) for n in names[:8]) + (", …" if len(names) > 8 else "")
    return (f"{arg.label} has no section {render(title)} (headings: {shown})"
            + (f"; did you mean {render(near)}?" if near else ""))


def headings(arg: Val) -> Result:
    text = need_text(arg, "headings")
    lines = read_lines(text)
    if "<" in text and is_markdown(text, arg.prov):
        no_html_headings(arg.label, lines, markup_of(arg.prov) == "HTML",
                         lambda i: placed_at(arg, arg.label, i).where())
    items = [Val(name, placed_at(arg, f"heading {render(name)} of {arg.label}", i))
             for i, _, name in _headings(lines)]
    return listed(arg, "headings", items)


# ------------------------------------------------------------------ blocks


def parts(arg: Val) -> Result:
    """The pieces of text between rules (``---``, or ``<hr>`` alone on its line),
    blank pieces left out."""
    text = need_text(arg, "parts")
    lines = read_lines(text)
    html_rules = _html_rules(arg, text, lines)
    pieces: list[list[Line]] = [[]]
    for line in lines:
        if line.number in html_rules or not line.hidden and not line.fence and _RULE.match(line.text):
            pieces.append([])
        else:
            pieces[-1].append(line)
    found = [_part(arg, f"part {n} of {arg.label}", piece)
             for n, piece in enumerate((p for p in pieces if any(x.text.strip() for x in p)), start=1)]
    return listed(arg, "parts", found)


def _html_rules(arg: Val, text: str, lines: list[Line]) -> set[int]:
    """The lines that are an ``<hr>`` alone (``html_blocks``); an ERROR when one stands
    beside other text, which it splits where no line ends."""
    if "<" not in text:
        return set()
    return html_blocks.rule_lines(arg.label, lines, code_blocks(lines), lambda i: placed_at(arg, arg.label, i).where())


def quotes(arg: Val) -> Result:
    """Each block quote (lines starting with ``>``, up to a line without one that does
    not go on with its paragraph), its ``>`` markers left out; and each ``<blockquote>``
    element, as written (``html_blocks``); in the order they start."""
    text = need_text(arg, "quotes")
    lines = read_lines(text)
    found = _marked_quotes(lines)
    if "<" in text:
        found = _with_html_quotes(lines, found)
    return listed(arg, "quotes", [_part(arg, f"quote {n} of {arg.label}", quote)
                                  for n, quote in enumerate(found, start=1)])


def _with_html_quotes(lines: list[Line], marked: list[list[Line]]) -> list[list[Line]]:
    """The quotes ``>`` marks, and those of ``<blockquote>`` elements, in the order they
    start; a ``>`` quote inside an element is part of it."""
    found = [[Line(first + k, piece, False, False) for k, piece in enumerate(pieces)]
             for first, pieces in html_blocks.quote_lines(lines, code_blocks(lines))]
    inside = [(quote[0].number, quote[-1].number) for quote in found]
    found += [quote for quote in marked if not any(a <= quote[0].number <= b for a, b in inside)]
    return sorted(found, key=lambda quote: quote[0].number)


def _marked_quotes(lines: list[Line]) -> list[list[Line]]:
    """The quotes ``>`` marks, each its lines with the markers left out."""
    groups: list[list[Line]] = []
    inside = False
    for line in lines:
        marker = None if line.hidden or line.fence else _QUOTE.match(line.text)
        if marker is None:
            inside = inside and _lazy(line, groups[-1])
            if inside:
                groups[-1].append(Line(line.number, line.text, False, False))
            continue
        if not inside:
            groups.append([])
            inside = True
        groups[-1].append(Line(line.number, line.text[marker.end():], False, False))
    return groups


def _lazy(line: Line, quote: list[Line]) -> bool:
    """Whether ``line``, without a ``>``, goes on with the paragraph the quote's last line
    holds (CommonMark's lazy continuation line: ``> Deleted the`` then ``backups``
    shows one quote of both): a line of text after text, a list item's or a nested
    quote's too, outside code."""
    last = quote[-1].text
    opens_other = _NOT_PARAGRAPH.match(last) is not None and _LIST_OR_QUOTE.match(last) is None
    in_code = sum(FENCE.match(q.text) is not None for q in quote) % 2 == 1
    return (not line.hidden and _NOT_PARAGRAPH.match(line.text) is None and _text_line(line.text)
            and not opens_other and _text_line(last) and not in_code)


def _text_line(text: str) -> bool:
    """Whether ``text`` may be a line of a paragraph: not blank, no rule, fence or comment."""
    return bool(text.strip()) and not (_RULE.match(text) or COMMENT.match(text) or FENCE.match(text))


def code(arg: Val) -> Result:
    """The text of each code block a reader sees (``codeblocks``): fenced, in a list item
    or a quote too, or indented; an unclosed fence runs to the end."""
    text = need_text(arg, "code")
    lines = read_lines(text)
    if "<" in text and is_markdown(text, arg.prov) and markup_of(arg.prov) == "HTML":
        return _html_code(arg, text)
    blocks = code_blocks(lines)
    if "<" in text:
        html_blocks.no_unread_pre(arg.label, lines, blocks, lambda i: placed_at(arg, arg.label, i).where())
    found = [Val("\n".join(block.lines), placed_at(arg, f"code block {n} of {arg.label}", block.first))
             for n, block in enumerate(blocks, start=1)]
    return listed(arg, "code", found)


def _html_code(arg: Val, text: str) -> Result:
    """The ``<pre>`` elements of an HTML file, the code blocks a browser shows there
    (``html_file_code``): HTML has no fences or indented code."""
    place = lambda i: placed_at(arg, arg.label, i).where()  # noqa: E731
    found = [Val(shown, placed_at(arg, f"code block {n} of {arg.label}", first))
             for n, (first, shown) in enumerate(html_file_code.html_code(arg.label, text, place), start=1)]
    return listed(arg, "code", found)


FUNCTIONS: dict[str, Callable[..., Result]] = {"section": section, "headings": headings, "parts": parts, "quotes": quotes,
             "code": code}
ARITY = {name: 1 for name in FUNCTIONS} | {"section": 2}
