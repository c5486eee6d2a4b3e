"""Where things are in a JSON text: the offset of each value, and of each character
of a string value. Used to point errors in evals.json at the real line and column.

The text is assumed to be valid JSON (``json.loads`` accepted it first).
"""

from __future__ import annotations

import json
from json.decoder import scanstring

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


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


def _object(text: str, i: int, path: tuple, depth: int, out: dict) -> int:
    i = _skip(text, i + 1)
    if text[i] == "}":
        return i + 1
    while True:
        key, i = scanstring(text, i + 1)
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
