"""JSON read and written with every number exact, as the rest of referee keeps them.

``json.loads`` reads ``1e-999999`` as 0.0 and ``1e999999`` as Infinity, and a
5,000-digit integer not at all: a value the agent sent would reach the view as
another value, or its whole line would be lost. Here a number is a ``float`` only
when that float is exactly the number written, an ``int`` when it has at most
``INT_DIGITS`` digits, and otherwise a ``Decimal`` of the very digits; ``dumps``
writes a Decimal back as those digits. The view's reader (``engine.run.safejson``)
then reads the number as exactly as it can, or says it cannot (a number out of its
range makes the value unreadable, and a check on it an ERROR), never a rounding.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal, InvalidOperation
from typing import Any

from referee.engine.run.safejson import MAX_JSON_DEPTH, depth_exceeded

INT_DIGITS = 4000  # below Python's limit on converting digits to an int (4300)


def _number(text: str) -> float | Decimal:
    number = float(text)
    if math.isfinite(number) and Decimal(repr(number)) == Decimal(text):
        return number
    return Decimal(text)


def _integer(text: str) -> int | Decimal:
    return int(text) if len(text) <= INT_DIGITS else Decimal(text)


# Integers are read by the scanner itself (no Python call per integer); only text that
# it refuses is read again by the decoder that takes any number of digits.
_DECODER = json.JSONDecoder(parse_float=_number, parse_constant=Decimal)
_LONG_INTEGERS = json.JSONDecoder(parse_float=_number, parse_int=_integer, parse_constant=Decimal)
# What ``json.dumps(value, ensure_ascii=False)`` makes anew for every value, made once.
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def loads(text: str) -> tuple[Any] | None:
    """``(value,)`` for JSON text within the depth limit, else None; never raises."""
    if depth_exceeded(text, MAX_JSON_DEPTH) is not None:
        return None
    for decoder in (_DECODER, _LONG_INTEGERS):
        try:
            return (decoder.decode(text),)
        except ValueError:  # not JSON, or an integer of more digits than int() takes
            continue
        except (RecursionError, InvalidOperation):  # InvalidOperation: an exponent beyond any Decimal
            return None
    return None


def value_at(text: str, at: int) -> tuple[Any, int] | None:
    """The JSON value that starts at offset ``at`` of ``text`` and the offset just past
    it, as ``loads`` reads that value's text alone; None where ``loads`` would not read
    it, or would need its decoder of long integers (which reads whole texts only)."""
    try:
        value, end = _DECODER.raw_decode(text, at)
    except (ValueError, RecursionError, InvalidOperation):
        return None
    if isinstance(value, (dict, list)) and depth_exceeded(text[at:end], MAX_JSON_DEPTH) is not None:
        return None
    return value, end


def dumps(value: Any) -> str:
    """One-line JSON as ``json.dumps(value, ensure_ascii=False)`` writes it, Decimals
    as their own digits (``NaN`` and ``Infinity`` as such: not JSON, so read as unreadable)."""
    return dumps_told(value)[0]


def dumps_told(value: Any) -> tuple[str, bool]:
    """``dumps(value)``, and whether ``json.dumps`` wrote it alone (no Decimal in ``value``)."""
    try:
        return _ENCODER.encode(value), True
    except TypeError:  # a Decimal somewhere in it: the slower walk below
        return "".join(_parts(value)), False


def dumps_file(value: Any) -> str:
    """JSON as ``json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)`` writes
    it, Decimals as their own digits: a file written from JSON read exactly."""
    try:
        return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)
    except TypeError:  # a Decimal somewhere in it
        return "".join(_parts(value, indent=2, sort_keys=True))


def _parts(value: Any, indent: int | None = None, sort_keys: bool = False):
    """The pieces of ``value``'s JSON text, depth first, without recursion: on one line,
    or ``indent`` spaces a level as ``json.dumps`` indents."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, _Raw):
            yield item.text
        elif isinstance(item, Decimal):
            yield str(item)
        elif isinstance(item, (dict, list, tuple)):
            stack.extend(reversed(_members(item, level, indent, sort_keys)))
        else:
            yield json.dumps(item, ensure_ascii=False)


def _members(item: dict | list | tuple, level: int, indent: int | None, sort_keys: bool) -> list[tuple[Any, int]]:
    """The pieces of an object or array one level down: its brackets, separators and
    keys as text, its values to be written in turn."""
    closing = "}" if isinstance(item, dict) else "]"
    pieces: list[tuple[Any, int]] = [(_Raw("{" if isinstance(item, dict) else "["), level)]
    inner = "" if indent is None else "\n" + " " * (indent * (level + 1))
    separator = ", " if indent is None else ","
    entries = (sorted(item.items()) if sort_keys else list(item.items())) if isinstance(item, dict) else item
    for n, entry in enumerate(entries):
        lead = (separator if n else "") + inner
        if isinstance(item, dict):
            key, entry = entry
            lead += json.dumps(str(key), ensure_ascii=False) + ": "
        pieces.extend(((_Raw(lead), level), (entry, level + 1)))
    outer = "" if indent is None or not item else "\n" + " " * (indent * level)
    pieces.append((_Raw(outer + closing), level))
    return pieces


class _Raw:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text
