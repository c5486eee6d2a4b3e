"""The pass over a document's tokens that finds its message array and the bounds of
each element (``walked_array``), for any document: cut short, not UTF-8, of any size.
It looks at strings and brackets only, and counts lines as it goes."""

from __future__ import annotations

import re
from typing import Any

from referee.engine.run.importers.jsondoc_model import MESSAGE_KEYS, TRAJECTORY, Document, Element, key_name
from referee.engine.run.safejson import JSON_TOKEN

_TEXT_TOKEN = JSON_TOKEN  # over a line already decoded
_TOKEN = re.compile(JSON_TOKEN.pattern.encode(), re.S)  # the same, over a file's bytes


def walked_array(data: bytes | str, keys: tuple[str, ...] | None = None) -> Document | None:
    """``message_array`` by one pass over the tokens of ``data``, for any document:
    cut short, not UTF-8, under a ``"messages"`` key (one of ``keys``), of any size."""
    keys = MESSAGE_KEYS if keys is None else keys
    kind = _Kind.of(data)
    blank = kind.blank.match(data)  # always matches (it may be empty): no copy of the data
    start = blank.end() if blank is not None else 0
    if data[start:start + 1] not in kind.opening:
        return None
    walk = _Walk(data, kind, keys)
    for match in kind.token.finditer(data, start):
        if walk.token(match):
            break
    else:
        walk.finish()  # cut short: the element being read has no end
    if walk.array_depth is None:
        return None
    if walk.document_end is not None and kind.filled.search(data, walk.document_end):
        return None  # a second value follows: JSON lines
    base = "" if walk.array_depth == 1 else "/" + str(key_name(kind.text_of(walk.array_key)))
    return Document(walk.elements, walk.document_end is not None, base, another=walk.another, span=walk.span,
                    line=walk.opened_line, trajectory=walk.trajectory)


class _Kind:
    """The tokens of bytes or of text: one walk serves both."""

    def __init__(self, text: bool) -> None:
        def form(value: bytes):
            return value.decode() if text else value

        self.token: re.Pattern[Any] = _TEXT_TOKEN if text else _TOKEN  # of the data's type
        self.blank, self.filled = re.compile(form(rb"[ \t\r\n]*")), re.compile(form(rb"[^ \t\r\n]"))
        self.quote, self.newline = form(b'"'), form(b"\n")
        self.text_of = (lambda key: key) if text else (lambda key: key.decode("utf-8", "replace"))
        self.opening, self.closing = (form(b"["), form(b"{")), (form(b"]"), form(b"}"))

    def names(self, key: bytes | str | None, keys: tuple[str, ...]) -> bool:
        """Is ``key`` (a string token) one of ``keys``?"""
        return key is not None and key_name(self.text_of(key)) in keys

    @staticmethod
    def of(data: bytes | str) -> "_Kind":
        return _TEXT if isinstance(data, str) else _BYTES


_TEXT, _BYTES = _Kind(True), _Kind(False)


class _Walk:
    """The state of the pass over a document's tokens."""

    def __init__(self, data: bytes | str, kind: _Kind, keys: tuple[str, ...]) -> None:
        self.data = data
        self.kind = kind
        self.keys = keys  # the keys whose array holds the messages
        self.trajectory = False  # a top-level "trajectory" array was met
        self.opened_line = 1  # the line where the message array opens
        self.depth = 0
        self.array_depth: int | None = None
        self.last_key: bytes | str | None = None
        self.array_key: bytes | str | None = None
        self.open: tuple[int, int] | None = None  # (offset, line) of the element being read
        # The message array's depth while inside it, else None: once it has closed, an
        # array of the same depth further on (a request's "tools") holds no messages.
        self.reading: int | None = None
        self.another: int | None = None  # the line of a second message array (under a key)
        self.opened: int | None = None  # where the message array opens
        self.span: tuple[int, int] | None = None  # where it opens and closes, once closed
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
            if self.reading == self.depth and self.open is None:
                self.elements.append(Element(at, match.end(), self.line_at(at), False))
            return False
        if token in kind.opening:
            self.depth += 1
            named = self.depth == 2 and token == kind.opening[0] and kind.names(self.last_key, self.keys)
            if self.depth == 2 and token == kind.opening[0] and kind.names(self.last_key, (TRAJECTORY,)):
                self.trajectory = True
            if self.array_depth is None and token == kind.opening[0] and (self.depth == 1 or named):
                self.array_depth, self.array_key, self.reading = self.depth, self.last_key, self.depth
                self.opened, self.opened_line = at, self.line_at(at)
            elif self.reading is not None and self.depth == self.reading + 1:
                self.open = (at, self.line_at(at))
            elif self.another is None and self.array_depth == self.depth == 2 and named:
                self.another = self.line_at(at)
            return False
        if self.reading is not None and self.depth == self.reading + 1 and self.open is not None:
            self.elements.append(Element(self.open[0], match.end(), self.open[1], token == kind.closing[1]))
            self.open = None
        if self.reading == self.depth:
            self.reading = None
            self.span = (self.opened, match.end()) if self.opened is not None else None
        self.depth -= 1
        if self.depth == 0:
            self.document_end = match.end()
            return True
        return False

    def finish(self) -> None:
        if self.open is not None:
            self.elements.append(Element(self.open[0], None, self.open[1]))
