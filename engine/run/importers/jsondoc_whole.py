"""A document of the plain kind decoded whole by the exact decoder (``decoded_array``),
element after element: the same bounds the walk finds (``jsondoc_walk``), at C speed,
with each message's value on the way; None for any other document, which the walk reads."""

from __future__ import annotations

import re
from typing import Any

from referee.engine.run.importers.exact import value_at
from referee.engine.run.importers.jsondoc_model import MESSAGE_KEYS, TRAJECTORY, Document, Element, key_name

_BLANK_TEXT = re.compile(r"[ \t\r\n]*")

# Up to this size a document is held decoded whole while its messages are read: a
# run's messages are held by its conversation anyway. Past it, one message at a time.
WHOLE_LIMIT = 8 * 1024 * 1024


def decoded_array(data: bytes | str, keys: tuple[str, ...] | None = None) -> Document | None:
    """``walked_array``'s document, with every element's value, for a document of at
    most ``WHOLE_LIMIT`` that decodes as strict UTF-8 and exact JSON with nothing
    after it; None for any other data (which the walk reads)."""
    keys = MESSAGE_KEYS if keys is None else keys
    text = _strict_text(data) if len(data) <= WHOLE_LIMIT else None
    if text is None:
        return None
    at = _skip(text, 0)
    keyed = text[at:at + 1] != "["
    named: set[str] = set()  # the keys of the top-level object's arrays, as far as read
    base, opening = _keyed_array(text, at, keys, named) if keyed else ("", at)
    if opening is None:
        return None
    found = _elements(text, opening, _Offsets(data, text))
    if found is None:
        return None
    elements, values, every, end = found
    closed = _members(text, end, keys, named) if keyed else end  # the rest of the top-level object
    if closed is None or _skip(text, closed) != len(text):
        return None  # more after the document: the walk tells JSON lines from a document
    offsets = _Offsets(data, text)  # a fresh count: the array's ends, in the data's units
    line = offsets.line(opening)
    return Document(elements, True, base, values, whole=None if keyed else every,
                    span=(offsets.of(opening), offsets.of(end)), line=line, trajectory=TRAJECTORY in named)


def _skip(text: str, at: int) -> int:
    blank = _BLANK_TEXT.match(text, at)  # always matches (it may be empty)
    return blank.end() if blank is not None else at


def _keyed_array(text: str, at: int, keys: tuple[str, ...], named: set[str]) -> tuple[str, int | None]:
    """In a top-level object, the first member whose key is one of ``keys`` and whose
    value is an array (as the walk finds it): its pointer and where it opens. The keys
    of the arrays before it are added to ``named``."""
    if text[at:at + 1] != "{":
        return "", None
    at = _skip(text, at + 1)
    while text[at:at + 1] == '"':
        member = _member(text, at)
        if member is None:
            return "", None
        key, value = member
        if _holds_messages(text, key, value, keys):
            return "/" + str(key_name(key)), value
        _note_array(text, key, value, named)
        found = value_at(text, value)
        at = _skip(text, found[1]) if found is not None else len(text)
        if text[at:at + 1] != ",":
            return "", None
        at = _skip(text, at + 1)
    return "", None


def _members(text: str, at: int, keys: tuple[str, ...], named: set[str]) -> int | None:
    """Past the members of an object after the one at ``at`` (which has ended): where
    the object closes, or None when they are not JSON. The keys of their arrays are
    added to ``named``."""
    at = _skip(text, at)
    while text[at:at + 1] == ",":
        member = _member(text, _skip(text, at + 1))
        if member is not None and _holds_messages(text, *member, keys):
            return None  # a second message array: the walk says so
        if member is not None:
            _note_array(text, *member, named)
        found = value_at(text, member[1]) if member is not None else None
        if found is None:
            return None
        at = _skip(text, found[1])
    return at + 1 if text[at:at + 1] == "}" else None


def _holds_messages(text: str, key: str, value: int, keys: tuple[str, ...]) -> bool:
    """Is the member whose key is written ``key`` and whose value starts at ``value``
    an array the walk takes for the message array?"""
    return key_name(key) in keys and text[value:value + 1] == "["


def _note_array(text: str, key: str, value: int, named: set[str]) -> None:
    """Add the name of the member ``key`` to ``named`` when its value is an array."""
    name = key_name(key)
    if name is not None and text[value:value + 1] == "[":
        named.add(name)


def _member(text: str, at: int) -> tuple[str, int] | None:
    """The member of an object at ``at``: its key as written (quotes and escapes
    kept) and where its value starts; None when no ``"key":`` is there."""
    key = value_at(text, at)
    if key is None or not isinstance(key[0], str):
        return None
    colon = _skip(text, key[1])
    if text[colon:colon + 1] != ":":
        return None
    return text[at:key[1]], _skip(text, colon + 1)


def _elements(text: str, at: int, offsets: "_Offsets") -> tuple[list[Element], list[Any], list[Any], int] | None:
    """The elements of the array opening at ``at``, their values, the array's value
    (every element: the walk takes no number, ``true``... for one), and where it ends."""
    elements: list[Element] = []
    values: list[Any] = []
    every: list[Any] = []
    at, first = _skip(text, at + 1), True
    while text[at:at + 1] != "]":
        if not first:
            if text[at:at + 1] != ",":
                return None
            at = _skip(text, at + 1)
        found = value_at(text, at)
        if found is None:
            return None
        (value, end), first = found, False
        every.append(value)
        if isinstance(value, (dict, list, str)):  # what the walk takes as an element
            elements.append(Element(offsets.of(at), offsets.of(end), offsets.line(at), isinstance(value, dict)))
            values.append(value)
        at = _skip(text, end)
    return elements, values, every, at + 1


def _strict_text(data: bytes | str) -> str | None:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class _Offsets:
    """Offsets and lines of a decoded text in the units of the data it came from."""

    def __init__(self, data: bytes | str, text: str) -> None:
        self.text = text
        self.wide = isinstance(data, bytes) and not data.isascii()  # else a character is a unit
        self.chars = self.units = 0
        self.lines, self.counted = 1, 0

    def of(self, at: int) -> int:
        if not self.wide:
            return at
        self.units += len(self.text[self.chars:at].encode("utf-8"))
        self.chars = at
        return self.units

    def line(self, at: int) -> int:
        self.lines += self.text.count("\n", self.counted, at)
        self.counted = at
        return self.lines
