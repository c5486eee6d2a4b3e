"""Where the messages of one JSON document lie, found without parsing the whole of it.

A message list may be one pretty-printed document of hundreds of megabytes. Parsed
whole, every message would be held as Python objects at once (many times the
source's size); instead one pass over its bytes finds where each element of the
message array starts and ends, and each message is decoded and parsed on its own,
when it is read, and let go. The pass looks at strings and brackets only: JSON's
structure is ASCII, so no UTF-8 text inside a string can fake it. Line numbers are
counted as it goes, and a key inside a message is looked up in that message alone,
once per key: the cost is linear in the document, however many calls one message
holds.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from referee.engine.run.importers.record import Origin

_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)
_TEXT_TOKEN = re.compile(_TOKEN.pattern.decode(), re.S)  # the same, over a line already decoded
_SPACE = b" \t\r\n"


@dataclass(frozen=True)
class Element:
    """One element of the message array: its bytes ``[start, end)`` (``end`` None when
    the document is cut short inside it), the line it starts on, and whether it is
    an object (anything else is no message)."""

    start: int
    end: int | None
    line: int
    is_object: bool = True


@dataclass
class Document:
    """The elements of a document's message array, whether the array was closed, and
    the array's JSON Pointer (``""`` for a top-level array, ``/messages``, ``/traj``)."""

    elements: list[Element] = field(default_factory=list)
    closed: bool = False
    base: str = ""


def message_array(data: bytes | str) -> Document | None:
    """The message array of ``data`` (a file's bytes, or one line already decoded):
    the top-level array, or the top-level object's ``"messages"`` array (``"traj"`` in
    tau-bench's results). None when
    ``data`` is not one JSON document holding one (JSON lines, whose first line ends
    before the data does, are read line by line). Offsets are in ``data``'s units."""
    kind = _Kind.of(data)
    blank = kind.blank.match(data)  # always matches (it may be empty): no copy of the data
    start = blank.end() if blank is not None else 0
    if data[start:start + 1] not in kind.opening:
        return None
    walk = _Walk(data, kind)
    for match in kind.token.finditer(data, start):
        if walk.token(match):
            break
    else:
        walk.finish()  # cut short: the element being read has no end
    if walk.array_depth is None:
        return None
    if walk.document_end is not None and kind.filled.search(data, walk.document_end):
        return None  # a second value follows: JSON lines
    base = "" if walk.array_depth == 1 else "/" + kind.text_of(walk.array_key)[1:-1]
    return Document(walk.elements, walk.document_end is not None, base)


class _Kind:
    """The tokens of bytes or of text: one walk serves both."""

    def __init__(self, text: bool) -> None:
        def form(value: bytes):
            return value.decode() if text else value

        self.token: re.Pattern[Any] = _TEXT_TOKEN if text else _TOKEN  # of the data's type
        self.blank, self.filled = re.compile(form(rb"[ \t\r\n]*")), re.compile(form(rb"[^ \t\r\n]"))
        self.quote, self.newline = form(b'"'), form(b"\n")
        self.keys = (form(b'"messages"'), form(b'"traj"'))  # the keys whose array holds the messages
        self.text_of = (lambda key: key) if text else (lambda key: key.decode())
        self.opening, self.closing = (form(b"["), form(b"{")), (form(b"]"), form(b"}"))

    @staticmethod
    def of(data: bytes | str) -> "_Kind":
        return _TEXT if isinstance(data, str) else _BYTES


_TEXT, _BYTES = _Kind(True), _Kind(False)


class _Walk:
    """The state of the pass over a document's tokens."""

    def __init__(self, data: bytes | str, kind: _Kind) -> None:
        self.data = data
        self.kind = kind
        self.depth = 0
        self.array_depth: int | None = None
        self.last_key: bytes | str | None = None
        self.array_key: bytes | str | None = None
        self.open: tuple[int, int] | None = None  # (offset, line) of the element being read
        self.elements: list[Element] = []
        self.line, self.counted = 1, 0
        self.document_end: int | None = None

    def line_at(self, offset: int) -> int:
        self.line += self.data.count(self.kind.newline, self.counted, offset)
        self.counted = offset
        return self.line

    def token(self, match: re.Match) -> bool:
        """Take one token; True when the document's top-level value has ended."""
        token, kind = match.group(), self.kind
        at = match.start()
        if token[:1] == kind.quote:
            if self.depth == 1:
                self.last_key = token
            if self.array_depth is not None and self.depth == self.array_depth and self.open is None:
                self.elements.append(Element(at, match.end(), self.line_at(at), False))
            return False
        if token in kind.opening:
            self.depth += 1
            if self.array_depth is None and token == kind.opening[0] and (
                    self.depth == 1 or (self.depth == 2 and self.last_key in kind.keys)):
                self.array_depth, self.array_key = self.depth, self.last_key
            elif self.array_depth is not None and self.depth == self.array_depth + 1:
                self.open = (at, self.line_at(at))
            return False
        if self.array_depth is not None and self.depth == self.array_depth + 1 and self.open is not None:
            self.elements.append(Element(self.open[0], match.end(), self.open[1], token == kind.closing[1]))
            self.open = None
        self.depth -= 1
        if self.depth == 0:
            self.document_end = match.end()
            return True
        return False

    def finish(self) -> None:
        if self.open is not None:
            self.elements.append(Element(self.open[0], None, self.open[1]))


def strays(data: bytes, elements: list[Element]) -> list[int]:
    """The lines of values in the array between its messages that are not objects
    (numbers, ``true``...: what the pass skips), reported as no message."""
    found = []
    for before, after in zip(elements, elements[1:]):
        if before.end is not None and data[before.end:after.start].strip(_SPACE + b","):
            found.append(after.line)
    return found


class MessageLines:
    """Origins inside one message: the line where ``key`` is written the n-th time,
    and, for a message on a line it shares with others (``column`` given: where the
    message starts in its line, 0-based), the key's column and its JSON Pointer
    (``pointer`` is the message's own).

    Each key is looked up once in the message's text (JSON-escaped keys cannot be
    mistaken for it: a key is a string right before a colon), so a message of 5,000
    calls costs 5,000 lookups of a list, not 5,000 scans of the message."""

    def __init__(self, text: str, first_line: int, name: str, pointer: str = "", column: int | None = None) -> None:
        self.text = text
        self.first_line = first_line
        self.name = name
        self.pointer = pointer
        self.column = column
        self.breaks = [m.start() for m in re.finditer("\n", text)] if "\n" in text else []
        self.keys: dict[str, list[int]] = {}

    def origin(self, key: str, nth: int, suffix: str = "") -> Origin:
        """Where the n-th ``key`` is; ``suffix`` is its pointer below the message's."""
        offset = 0
        if key:
            offsets = self.keys.get(key)
            if offsets is None:
                offsets = self.keys[key] = key_offsets(self.text, key)
            offset = offsets[nth] if nth < len(offsets) else 0
        line = self.first_line + bisect.bisect_left(self.breaks, offset)
        if self.column is None or self.breaks:
            return Origin(self.name, line)
        return Origin(self.name, line, self.pointer + suffix, self.column + offset + 1)


def key_offsets(text: str, key: str) -> list[int]:
    """Where ``"key"`` stands as a key in the JSON ``text``: the quoted name, not
    escaped (inside a string it would be), followed by a colon. A substring search:
    a regex with a look-behind before the literal would try every position."""
    quoted, found = f'"{key}"', []
    at = text.find(quoted)
    while at >= 0:
        end = at + len(quoted)
        after = end
        while after < len(text) and text[after] in " \t\r\n":
            after += 1
        if (at == 0 or text[at - 1] != "\\") and text[after:after + 1] == ":":
            found.append(at)
        at = text.find(quoted, end)
    return found


def columns(data: bytes, elements: list[Element]) -> list[int | None]:
    """Each element's 0-based column in characters, for one that shares its line with
    another (None for one alone on its line), counted as the elements come."""
    found: list[int | None] = []
    column, at = 0, 0
    for n, element in enumerate(elements):
        shared = any(0 <= k < len(elements) and k != n and elements[k].line == element.line for k in (n - 1, n + 1))
        if n == 0 or elements[n - 1].line != element.line:
            column = len(data[data.rfind(b"\n", 0, element.start) + 1:element.start].decode("utf-8", "replace"))
        else:
            column += len(data[at:element.start].decode("utf-8", "replace"))
        at = element.start
        found.append(column if shared else None)
    return found
