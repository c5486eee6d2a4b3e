"""The bracket form of a JSONPath name jsonpath-ng cannot read written bare.

jsonpath-ng reads a bare name (after ``.``, ``@.``, ``..``, in a sort or a filter) of
ASCII letters, digits, ``_`` and ``-`` only: ``$.Müller`` is refused at ``ü``, while
``$['Müller']`` reads any text. A query refused so is offered with each such name in
brackets (``$.guests[?(@['Müller'] == 1)]``), and only when jsonpath-ng reads it.
``error_at`` finds where in the query jsonpath-ng's message says it stopped.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable

_ASCII_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_QUOTES = "'\"`"
# Where jsonpath-ng's lexer and parser say they stopped (0-based columns of line 1):
# "Error on line 1, col 3: ...", "Parse error at 1:4 near token ...", and "Parse
# error near the end of string!". Read from the message, the only place it is given;
# a message of another shape gives no column (the caret then marks the whole query).
_STOPPED_AT = re.compile(r"^(?:Error on line 1, col (\d+):|Parse error at 1:(\d+) )")
_AT_END = "Parse error near the end of string"


def bracketed(query: str, parses: Callable[[str], object]) -> str | None:
    """``query`` with each bare name holding a letter beyond ASCII written in brackets
    (quoted where a bracket is already open: ``[/'Müller']``), when ``parses`` (which
    raises on a query it refuses) accepts it; else None."""
    parts: list[str] = []
    changed = False
    i = 0
    while i < len(query):
        char = query[i]
        if char in _QUOTES:
            end = _quoted_end(query, i)
            parts.append(query[i:end])
            i = end
            continue
        end = _name_end(query, i)
        if end == i:
            parts.append(char)
            i += 1
            continue
        name = query[i:end]
        if not name.isascii():
            changed = True
            after_dot = bool(parts) and parts[-1] == "."
            if after_dot and not (len(parts) > 1 and parts[-2] == "."):
                parts.pop()  # `.name` is `['name']`; `..name` is `..['name']`
            name = f"['{name}']" if after_dot else f"'{name}'"
        parts.append(name)
        i = end
    if not changed:
        return None
    written = "".join(parts)
    try:
        parses(written)
    except Exception:  # jsonpath-ng raises many unrelated exception types
        return None
    return written


def _quoted_end(query: str, start: int) -> int:
    """The index after the string opened at ``start``, as jsonpath-ng's lexer reads it
    (a backslash escapes the next character); the end of ``query`` when left open."""
    i = start + 1
    while i < len(query):
        if query[i] == "\\":
            i += 2
        elif query[i] == query[start]:
            return i + 1
        else:
            i += 1
    return len(query)


def _name_end(query: str, start: int) -> int:
    """The index after the name starting at ``start`` (``start`` when none does): ASCII
    name characters and letters, marks and digits beyond ASCII."""
    i = start
    while i < len(query) and (query[i] in _ASCII_NAME or _other_letter(query[i])):
        i += 1
    return i


def _other_letter(char: str) -> bool:
    return not char.isascii() and unicodedata.category(char)[0] in "LMN"


def error_at(message: str, query: str) -> int | None:
    """The 0-based offset in ``query`` (one line) where jsonpath-ng's ``message`` says
    reading stopped, or None when it does not say or the query spans lines."""
    if "\n" in query:
        return None
    if message.startswith(_AT_END):
        return len(query)
    found = _STOPPED_AT.match(message)
    if found is None:
        return None
    offset = int(found.group(1) or found.group(2))
    return offset if offset <= len(query) else None
