"""Where things are in a JSON text: the offset of each value, and of each character
of a string value. Used to point errors in evals.json at the real line and column.

The text is assumed to be valid JSON (``json.loads`` accepted it first).
"""

from __future__ import annotations

import bisect
import json
from functools import lru_cache

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"
# What Python before 3.13 says of a comma before a closing bracket, at the bracket.
_TRAILING = {"Expecting property name enclosed in double quotes": ("}", "object"),
             "Expecting value": ("]", "array")}


def syntax_error(exc: json.JSONDecodeError) -> json.JSONDecodeError:
    """``exc`` as Python 3.13 and later report it, on every Python, so that the same
    text gets the same message and place: a comma before a closing bracket is an
    "Illegal trailing comma", at the comma (before 3.13, a missing name or value at
    the bracket)."""
    closing = _TRAILING.get(exc.msg)
    if closing is None or exc.doc[exc.pos:exc.pos + 1] != closing[0]:
        return exc
    comma = exc.pos - 1
    while comma >= 0 and exc.doc[comma] in _WS:
        comma -= 1
    if comma < 0 or exc.doc[comma] != ",":
        return exc
    return json.JSONDecodeError(f"Illegal trailing comma before end of {closing[1]}", exc.doc, comma)


def index_values(text: str, depth: int = 6) -> dict[tuple, int]:
    """Offset of every value down to ``depth`` levels, keyed by its path
    (object keys as str, array positions as int); () is the whole document."""
    out: dict[tuple, int] = {}
    _value(text, _skip(text, 0), (), depth, out)
    return out


def raw_offsets(text: str, start: int) -> list[int]:
    """For the JSON string whose opening quote is at ``start``: the offset in
    ``text`` of each decoded character, then of the closing quote."""
    offsets: list[int] = []
    i = start + 1
    while i < len(text) and text[i] != '"':
        offsets.append(i)
        if text[i] != "\\":
            i += 1
        elif text[i + 1] != "u":
            i += 2
        elif _is_pair(text, i):
            i += 12  # a surrogate pair decodes to one character
        else:
            i += 6
    offsets.append(i)
    return offsets


def child_offset(text: str, start: int, key: str | int) -> int | None:
    """The offset of the value at ``key`` (an object's key, or an array's position,
    negative from the end) in the JSON object or array whose first character is at
    ``start``, as ``json.loads`` would take it (the last of repeated keys); None when
    there is no such value or the text is not valid JSON there. So a field's own
    line can be found in a value spread over lines. Each container is scanned once
    (the last few are remembered), so reading every element of a long list stays
    linear."""
    found = _members(text, start)
    if isinstance(found, dict):
        return found.get(key) if isinstance(key, str) else None
    if isinstance(found, list) and isinstance(key, int) and not isinstance(key, bool):
        return found[key] if -len(found) <= key < len(found) else None
    return None


def lines_before(text: str, offset: int) -> int:
    """How many line breaks ``text`` has before ``offset`` (its breaks found once)."""
    return bisect.bisect_left(_breaks(text), offset)


@lru_cache(maxsize=64)
def _breaks(text: str) -> list[int]:
    found: list[int] = []
    at = text.find("\n")
    while at >= 0:
        found.append(at)
        at = text.find("\n", at + 1)
    return found


@lru_cache(maxsize=64)
def _members(text: str, start: int) -> dict[str, int] | list[int] | None:
    """Where each member of the object or array at ``start`` begins; None for
    anything else (a scalar, or text that is not valid JSON there)."""
    try:
        i = _skip(text, start)
        if text[i] not in "{[":
            return None
        found: dict[str, int] | list[int] = {} if text[i] == "{" else []
        closing = "}" if isinstance(found, dict) else "]"
        i = _skip(text, i + 1)
        if text[i] == closing:
            return found
        while True:
            if isinstance(found, dict):
                name, i = _string(text, i)
                i = _skip(text, _skip(text, i) + 1)  # past the ':'
                found[name] = i  # a repeated key: json.loads keeps the last
            else:
                found.append(i)
            i = _skip(text, _value(text, i, (), 0, {}))
            if text[i] == closing:
                return found
            i = _skip(text, i + 1)  # past the ','
    except (ValueError, IndexError):  # not valid JSON there: no place to give
        return None


def _is_pair(text: str, i: int) -> bool:
    first = text[i + 2:i + 6].lower()
    return first[:2] in ("d8", "d9", "da", "db") and \
        text[i + 6:i + 8] == "\\u" and text[i + 8:i + 10].lower() in ("dc", "dd", "de", "df")


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _value(text: str, i: int, path: tuple, depth: int, out: dict) -> int:
    out[path] = i
    if depth > 0 and text[i] == "{":
        return _object(text, i, path, depth, out)
    if depth > 0 and text[i] == "[":
        return _array(text, i, path, depth, out)
    _, end = _DECODER.raw_decode(text, i)
    return end


def _string(text: str, start: int) -> tuple[str, int]:
    """The JSON string whose opening quote is at ``start``, and the offset just past it."""
    value, end = _DECODER.raw_decode(text, start)
    return value, end


def _object(text: str, i: int, path: tuple, depth: int, out: dict) -> int:
    i = _skip(text, i + 1)
    if text[i] == "}":
        return i + 1
    while True:
        key, i = _string(text, i)
        i = _skip(text, _skip(text, i) + 1)  # past the ':'
        i = _skip(text, _value(text, i, path + (key,), depth - 1, out))
        if text[i] == "}":
            return i + 1
        i = _skip(text, i + 1)  # past the ','


def _array(text: str, i: int, path: tuple, depth: int, out: dict) -> int:
    i = _skip(text, i + 1)
    if text[i] == "]":
        return i + 1
    n = 0
    while True:
        i = _skip(text, _value(text, i, path + (n,), depth - 1, out))
        n += 1
        if text[i] == "]":
            return i + 1
        i = _skip(text, i + 1)
