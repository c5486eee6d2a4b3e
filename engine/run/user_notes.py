"""``outputs/user_notes.md``: what the executor was unsure of, in four bullet lists.

The file is ``# User Notes`` with ``## Uncertainty`` (or ``Uncertainties``),
``## Needs Human Review`` (or ``Needs Review``), ``## Workarounds`` and
``## Suggestions`` sections, matched without regard to case. Items are ``-``,
``*``, ``+`` or numbered (``1.``, ``1)``) bullets; an indented line under a bullet
continues it, and a deeper-indented bullet is a sub-point of the item above it
(joined to it, not counted apart). Text outside a known section, and plain
paragraphs, are not items.
"""

from __future__ import annotations

import re

from referee.engine.run.model import Problem, UserNotes

USER_NOTES = "outputs/user_notes.md"

_NEWLINE = re.compile(r"\r\n|\r|\n")
_HEADING = re.compile(r" {0,3}#{1,6}(?=[ \t]|$)")
_BULLET = re.compile(r"[ \t]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+(.*)", re.S)
_SECTIONS = {
    "uncertainty": "uncertainties",
    "uncertainties": "uncertainties",
    "needs human review": "needs_review",
    "needs review": "needs_review",
    "human review": "needs_review",
    "workaround": "workarounds",
    "workarounds": "workarounds",
    "suggestion": "suggestions",
    "suggestions": "suggestions",
}


def section_key(title: str) -> str | None:
    """The UserNotes field a heading title names, or None for any other heading."""
    words = " ".join(title.strip().rstrip(":：").replace("_", " ").split()).casefold()
    return _SECTIONS.get(words)


def parse_user_notes(text: str | None, problems: tuple[Problem, ...] = ()) -> UserNotes:
    """Parse user notes text (None or empty gives empty lists); ``problems`` are carried over."""
    items: dict[str, list[str]] = {key: [] for key in set(_SECTIONS.values())}
    current: list[str] | None = None
    indent = 0  # where the current item's bullet stands: deeper bullets belong to it
    for line in _NEWLINE.split(text or ""):
        heading = _HEADING.match(line)
        if heading is not None:
            key = section_key(line[heading.end():].strip().strip("#"))
            current = items[key] if key else None
            continue
        if current is not None:
            indent = _add_line(current, line, indent)
    return UserNotes(
        uncertainties=tuple(items["uncertainties"]),
        needs_review=tuple(items["needs_review"]),
        workarounds=tuple(items["workarounds"]),
        suggestions=tuple(items["suggestions"]),
        problems=problems,
    )


def _add_line(items: list[str], line: str, indent: int) -> int:
    """Add ``line`` to the section's items; returns the indent of the current item.

    A bullet indented deeper than the current item's is one of its sub-points, not
    an item of its own: it is appended to the item (after "; ")."""
    bullet = _BULLET.match(line)
    if bullet is not None:
        item = bullet.group(1).strip()
        depth = _indent(line)
        if items and depth > indent:
            if item:
                items[-1] = f"{items[-1]}; {item}"
            return indent
        if item:
            items.append(item)
        return depth
    if items and line[:1] in (" ", "\t") and line.strip():
        items[-1] = f"{items[-1]} {line.strip()}"  # a wrapped bullet continues
    return indent


def _indent(line: str) -> int:
    """Leading blanks, a tab counting as four spaces (Markdown's tab stop)."""
    width = 0
    for char in line:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width
