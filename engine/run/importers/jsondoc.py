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

from referee.engine.run.importers.record import Origin

_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)
_SPACE = b" \t\r\n"
_BLANK = re.compile(rb"[ \t\r\n]*")
_FILLED = re.compile(rb"[^ \t\r\n]")


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
    """The elements of a document's message array, and whether the array was closed."""

    elements: list[Element] = field(default_factory=list)
    closed: bool = False


def message_array(data: bytes) -> Document | None:
    """The message array of ``data``: the top-level array, or the top-level object's
    ``"messages"`` array. None when ``data`` is not one JSON document holding one
    (JSON lines, whose first line ends before the data does, are read line by line)."""
    start = _BLANK.match(data).end()  # no copy of the data: it may be hundreds of megabytes
    if data[start:start + 1] not in (b"[", b"{"):
        return None
    walk = _Walk(data)
    for match in _TOKEN.finditer(data, start):
        if walk.token(match):
            break
    else:
        walk.finish()  # cut short: the element being read has no end
    if walk.array_depth is None:
        return None
    if walk.document_end is not None and _FILLED.search(data, walk.document_end):
        return None  # a second value follows: JSON lines
    return Document(walk.elements, walk.document_end is not None)


class _Walk:
    """The state of the pass over a document's tokens."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.depth = 0
        self.array_depth: int | None = None
        self.last_key: bytes | None = None
        self.open: tuple[int, int] | None = None  # (offset, line) of the element being read
        self.elements: list[Element] = []
        self.line, self.counted = 1, 0
        self.document_end: int | None = None

    def line_at(self, offset: int) -> int:
        self.line += self.data.count(b"\n", self.counted, offset)
        self.counted = offset
        return self.line

    def token(self, match: re.Match) -> bool:
        """Take one token; True when the document's top-level value has ended."""
        token = match.group()
        at = match.start()
        if token[:1] == b'"':
            if self.depth == 1:
                self.last_key = token
            if self.array_depth is not None and self.depth == self.array_depth and self.open is None:
                self.elements.append(Element(at, match.end(), self.line_at(at), False))
            return False
        if token in (b"[", b"{"):
            self.depth += 1
            if self.array_depth is None and token == b"[" and (
                    self.depth == 1 or (self.depth == 2 and self.last_key == b'"messages"')):
                self.array_depth = self.depth
            elif self.array_depth is not None and self.depth == self.array_depth + 1:
                self.open = (at, self.line_at(at))
            return False
        if self.array_depth is not None and self.depth == self.array_depth + 1 and self.open is not None:
            self.elements.append(Element(self.open[0], match.end(), self.open[1], token == b"}"))
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
    """Origins inside one message: the line where ``key`` is written the n-th time.

    Each key is looked up once in the message's text (JSON-escaped keys cannot be
    mistaken for it: a key is a string right before a colon), so a message of 5,000
    calls costs 5,000 lookups of a list, not 5,000 scans of the message."""

    def __init__(self, text: str, first_line: int, name: str) -> None:
        self.text = text
        self.first_line = first_line
        self.name = name
        self.breaks = [m.start() for m in re.finditer("\n", text)] if "\n" in text else []
        self.keys: dict[str, list[int]] = {}

    def origin(self, key: str, nth: int) -> Origin:
        if not key:
            return Origin(self.name, self.first_line)
        offsets = self.keys.get(key)
        if offsets is None:
            offsets = self.keys[key] = [m.start() for m in re.finditer(rf'(?<!\\)"{re.escape(key)}"\s*:', self.text)]
        offset = offsets[nth] if nth < len(offsets) else 0
        return Origin(self.name, self.first_line + bisect.bisect_left(self.breaks, offset))
