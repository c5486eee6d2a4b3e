"""JSON read without ever raising, within limits: nesting at most ``MAX_JSON_DEPTH``
deep (measured on the value read: the decoder's recursion stops far deeper nesting
with a RecursionError long before the stack runs out), numbers at most
``MAX_NUMBER_CHARS`` long and within 1e±``MAX_EXPONENT`` (fractions as exact
Decimals). What ``engine.run.safeio`` reads as JSON, and every JSON payload of a
transcript, goes through here.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from decimal import Decimal
from typing import Any, Callable

from referee.dsl.frozen import frozen
from referee.dsl.json_locate import syntax_error
from referee.engine.run.model import Problem

MAX_JSON_DEPTH = 512  # deeper JSON is reported `too-deep` before json.loads sees it
MAX_NUMBER_CHARS = 1000  # a JSON number written longer than this is refused
MAX_EXPONENT = 9999  # and one whose magnitude is beyond 10 to this power (either way)


class NumberOutOfRange(ValueError):
    """A JSON number too long or too large to handle safely; ``text`` is how it was written."""

    def __init__(self, text: str):
        shown = text if len(text) <= 40 else f"{text[:20]}…{text[-10:]} ({len(text)} characters)"
        super().__init__(f"number {shown} is out of range (at most {MAX_NUMBER_CHARS} characters "
                         f"and magnitudes from 1e-{MAX_EXPONENT} to 1e{MAX_EXPONENT})")
        self.text = text


def _bounded_float(text: str) -> Decimal:
    """A JSON fraction as Decimal, refused before it can cost time or memory later
    (``1e-999999999`` printed in full is a billion digits; a bigger exponent is
    not even a Decimal)."""
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberOutOfRange(text)
    mark = max(text.find("e"), text.find("E"))
    if mark >= 0 and len(text) - mark > 7:  # more than six exponent digits
        raise NumberOutOfRange(text)
    number = Decimal(text)
    if number and abs(number.adjusted()) > MAX_EXPONENT:
        raise NumberOutOfRange(text)
    return number


def _bounded_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberOutOfRange(text)
    return int(text)


class KeyTwice(ValueError):
    """An object giving a key twice with two different values: JSON readers differ on
    which they take (the first, the last), so the JSON is not read as either."""

    def __init__(self, key: str):
        super().__init__(f"key {json.dumps(key, ensure_ascii=False)[:60]} given twice with different values "
                         "(JSON readers differ on which they take)")
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):  # a key given twice: harmless only with the same value
        for key, item in pairs:
            if not _same(item, value[key]):
                raise KeyTwice(key)
    return value


def _same(a: Any, b: Any) -> bool:
    """Whether two decoded JSON values are the same value (``true`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


# One decoder for every parse: json.loads with options would build a new one per call.
_DECODER = json.JSONDecoder(parse_float=_bounded_float, parse_int=_bounded_int,
                            parse_constant=Decimal, object_pairs_hook=_object)
# The decoder's scanner (what its ``raw_decode`` calls), called directly by
# ``json_value``: ``JSONDecoder.decode`` adds two regex matches and a Python frame
# around it, which cost as much as the scan of a short value. JSON whitespace is these
# four characters only.
_SCAN: Callable[[str, int], tuple[Any, int]] = getattr(_DECODER, "scan_once")  # set by __init__, not typed
# The same scanner without the integer hook, for text shorter than MAX_NUMBER_CHARS:
# no integer in it can be too long, so int() gives what _bounded_int gives, with no
# Python call per integer (most payloads of a transcript are that short).
_SHORT_INTS: Callable[[str, int], tuple[Any, int]] = getattr(
    json.JSONDecoder(parse_float=_bounded_float, parse_constant=Decimal, object_pairs_hook=_object), "scan_once")
_JSON_SPACE = " \t\n\r"
# A JSON string (or one cut short) or a bracket: what a pass over JSON's structure looks at.
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"?'
JSON_TOKEN = re.compile(_STRING + r"|[\[\]{}]", re.DOTALL)
_STRINGS = re.compile(_STRING, re.DOTALL)  # JSON_TOKEN's strings: cut out, they leave its brackets
_BRACKET = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}  # what a bracket does to the depth
_COLON = re.compile(r"[ \t\n\r]*:")  # after a string: it is a key


@frozen
class JsonResult:
    """The outcome of parsing JSON text: ``ok`` tells a null value from a failure."""

    ok: bool
    value: Any = None
    problem: Problem | None = None


def parse_json(text: str, report: str, first_line: int = 1, code: str = "bad-json") -> JsonResult:
    """Parse JSON text (floats as Decimal) without ever raising.

    ``first_line`` is the line of ``text``'s first character in its file, so the
    reported line points into that file. Nesting beyond ``MAX_JSON_DEPTH`` is
    refused (``too-deep``), whatever else is wrong with the text: the decoder's
    recursion stops far deeper nesting long before the stack runs out, so the depth
    is measured on the value read, and on the text only when the decoder refused it.
    """
    if not text or text.isspace():  # what "not text.strip()" says, without a copy of the text
        return JsonResult(False, None, Problem(code, report, "empty: no JSON value", first_line))
    found = decoded(text)
    if isinstance(found, tuple):
        return JsonResult(True, found[0])
    return JsonResult(False, None, not_json(text, found, report, first_line, code))


def decoded(text: str) -> tuple[Any] | ValueError | RecursionError:
    """``(value,)`` when ``parse_json`` accepts ``text``, else why not: the error
    ``JSONDecoder.decode`` raises on it (``_DECODER.decode``, the reference:
    tests/test_json_decoded_once.py), or for a value nested too deep a ValueError
    that ``not_json`` never shows (the depth is found first).

    One call of the decoder's scanner, as ``json_value`` makes: a reader that needs
    the message when the text is not JSON (a Return a tool printed as text) need
    not decode it a second time to get it."""
    size = len(text)
    start = size - len(text.lstrip(_JSON_SPACE)) if size and text[0] in _JSON_SPACE else 0
    scan = _SHORT_INTS if size < MAX_NUMBER_CHARS else _SCAN
    try:
        value, end = scan(text, start)
    except StopIteration as missing:  # no value at ``start``, as decode says it
        return json.JSONDecodeError("Expecting value", text, missing.value)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        return exc
    if end != size:
        tail = text[end:].lstrip(_JSON_SPACE)  # decode skips JSON whitespace after the value
        if tail:
            return json.JSONDecodeError("Extra data", text, size - len(tail))
    return ValueError("nested too deep") if _nested_too_deep(text, value) else (value,)


def not_json(text: str, error: ValueError | RecursionError, report: str, first_line: int = 1,
             code: str = "bad-json") -> Problem:
    """``parse_json``'s problem for ``text`` that is not empty, given what ``decoded``
    refused it with: nested too deep whatever else is wrong with it, else the error."""
    return _too_deep(text, report, first_line) or _refused(error, text, report, first_line, code)


def _too_deep(text: str, report: str, first_line: int) -> Problem | None:
    """The problem of ``text`` nested deeper than ``MAX_JSON_DEPTH``, at the line where; None when it is not."""
    deep_at = depth_exceeded(text, MAX_JSON_DEPTH)
    if deep_at is None:
        return None
    line = first_line + text.count("\n", 0, deep_at)
    return Problem("too-deep", report, f"JSON nested deeper than {MAX_JSON_DEPTH} levels; not parsed", line)


def _refused(exc: Exception, text: str, report: str, first_line: int, code: str) -> Problem:
    """Why the decoder refused ``text``, at the line where."""
    if isinstance(exc, json.JSONDecodeError):
        found = syntax_error(exc)
        line = first_line + found.lineno - 1
        return Problem(code, report, f"invalid JSON: {found.msg} (line {line}, column {found.colno})", line)
    if isinstance(exc, NumberOutOfRange):
        at = text.find(exc.text)
        line = first_line + (text.count("\n", 0, at) if at >= 0 else 0)
        return Problem(code, report, f"{exc}; the JSON was not read", line)
    if isinstance(exc, KeyTwice):
        again = _key_again(text, exc.key)
        line = first_line + (text.count("\n", 0, again) if again is not None else 0)
        return Problem(code, report, f"invalid JSON: {exc} (line {line})", line)
    return Problem(code, report, f"invalid JSON: {exc}", first_line)  # e.g. an integer with too many digits


def _key_again(text: str, key: str) -> int | None:
    """The offset where ``key`` is written a second time in one object of ``text``
    (valid JSON but for that), found by a walk over its strings and brackets."""
    objects: list[set[str] | None] = []  # the keys met in each open object; None for an array
    for match in JSON_TOKEN.finditer(text):
        token = match.group()
        if token in ("{", "["):
            objects.append(set() if token == "{" else None)
        elif token in ("}", "]"):
            if objects:
                objects.pop()
        elif objects and objects[-1] is not None and _COLON.match(text, match.end()):
            name = json.loads(token)  # a whole string: the text decoded but for its keys
            if name == key and name in objects[-1]:
                return match.start()
            objects[-1].add(name)
    return None


def json_value(text: str) -> tuple[Any] | None:
    """``(value,)`` when ``parse_json`` would accept ``text``, else None; never raises.

    The quick test for callers that only build a problem on failure: no result
    object, no message.
    """
    # What JSONDecoder.decode does: skip JSON whitespace, scan one value, and accept
    # it only when nothing but JSON whitespace follows. The scanner stops a deep prefix
    # with a RecursionError long before the stack runs out, so the depth limit is
    # checked after, on the value read: text that is not JSON is never measured.
    size = len(text)
    start = size - len(text.lstrip(_JSON_SPACE)) if size and text[0] in _JSON_SPACE else 0
    scan = _SHORT_INTS if size < MAX_NUMBER_CHARS else _SCAN
    try:
        value, end = scan(text, start)
    except StopIteration:  # no value at ``start``
        return None
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        return None
    if end != size and end != len(text.rstrip(_JSON_SPACE)):
        return None
    return None if _nested_too_deep(text, value) else (value,)


def _nested_too_deep(text: str, value: Any) -> bool:
    """Whether ``value``, read from ``text``, nests deeper than ``MAX_JSON_DEPTH``. Such
    JSON has more than the limit in opening brackets (so twice the limit in characters)."""
    return len(text) > 2 * MAX_JSON_DEPTH and text.count("[") + text.count("{") > MAX_JSON_DEPTH and \
        _deeper(value, MAX_JSON_DEPTH)


def _deeper(value: Any, limit: int) -> bool:
    """Whether the arrays and objects of a decoded value nest more than ``limit`` deep:
    ``depth_exceeded`` of the JSON it was read from, found level by level over its
    containers (a 120 KB document's in a tenth of the time of a walk over its text)."""
    level = [value] if isinstance(value, (dict, list)) else []
    for _ in range(limit):
        level = [item for outer in level for item in (outer.values() if isinstance(outer, dict) else outer)
                 if isinstance(item, (dict, list))]
        if not level:
            return False
    return bool(level)


# What may follow a JSON array's opening bracket (and JSON whitespace): a bracket, a
# string, or a word of a number or literal. A string in single quotes and Python's
# literals count too: a Python list printed as JSON is data that could not be read.
_ARRAY_ITEM = re.compile(r"[ \t\n\r]*(?:(?P<mark>[\]\"'{\[])|(?P<word>[-+.0-9A-Za-z]*))")
# What may follow an object's opening brace: a key (quoted, or a bare word before a
# colon as in JavaScript: data again), or its closing brace.
_OBJECT_KEY = re.compile(r"[ \t\n\r]*(?:[\"'}]|\Z|[-+.0-9A-Za-z_$]+[ \t\n\r]*(?::|\Z))")
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_CUT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]*)?)?")  # a number's start
# what ``_DECODER`` reads (NaN and Infinity too), and Python's literals
_LITERALS = ("true", "false", "null", "NaN", "Infinity", "-Infinity", "True", "False", "None")


def may_open_json(text: str) -> bool:
    """Whether ``text`` opens as a JSON object or array can: a bracket, then what a
    JSON document can hold next (after ``{`` a key or ``}``; after ``[`` a value's
    first word whole, or cut short by the text's end). ``[INFO] done``,
    ``[2024-05-01 10:00] started`` and ``{{name}}`` open so no JSON document does;
    ``{"a": [1,`` (cut short), ``{"a": 1,, "b": 2}`` and ``{'a': 1}`` (broken) do."""
    if text[:1] == "{":
        return _OBJECT_KEY.match(text, 1) is not None
    if text[:1] != "[":
        return False
    item = _ARRAY_ITEM.match(text, 1)
    if item is None or item.group("mark") is not None:
        return item is not None  # (it always matches: each of its parts may be empty)
    word = item.group("word")
    if item.end() == len(text):  # the text ends inside the first value: cut short
        return _starts_value(word)
    whole = text[item.end()] in _JSON_SPACE + ",]"  # a word that ends so must be a value
    return bool(word) and whole and (_NUMBER.fullmatch(word) is not None or word in _LITERALS)


def _starts_value(word: str) -> bool:
    """Whether ``word``, cut short by the text's end, can start a number or a literal."""
    return _NUMBER_CUT.fullmatch(word) is not None or any(literal.startswith(word) for literal in _LITERALS)


def json_prefix(text: str) -> tuple[Any, int] | None:
    """The JSON value at the very start of ``text`` and the offset just past it, or None.

    Text after the value is not looked at. The depth limit applies to all of
    ``text``, so a prefix is never decoded deeper than ``parse_json`` would go.
    """
    if depth_exceeded(text, MAX_JSON_DEPTH) is not None:
        return None
    try:
        return _DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return None


def depth_exceeded(text: str, limit: int) -> int | None:
    """The offset where bracket nesting first exceeds ``limit``, else None.

    Brackets inside strings do not count. Linear, and in C: most texts hold too few
    brackets to be that deep; the others have their strings cut out and the depth
    after each bracket left summed up. Only a text deeper than ``limit`` is walked
    token by token (``walk_depth``) to find where: that walk in Python cost 40 % of
    reading a 70 KB stylesheet a tool printed.
    """
    if len(text) <= limit or ("[" not in text and "{" not in text):
        return None  # "in" stops at the first bracket; a count steps through every character
    if text.count("[") + text.count("{") <= limit:
        return None
    steps = map(_STEP.__getitem__, _BRACKET.findall(_STRINGS.sub("", text)))
    if max(accumulate(steps), default=0) <= limit:
        return None
    return walk_depth(text, limit)


def walk_depth(text: str, limit: int) -> int | None:
    """``depth_exceeded``, by a walk over the strings and brackets of ``text``."""
    depth = 0
    for match in JSON_TOKEN.finditer(text):
        char = match.group()[0]
        if char in "[{":
            depth += 1
            if depth > limit:
                return match.start()
        elif char in "]}":
            depth -= 1
    return None
