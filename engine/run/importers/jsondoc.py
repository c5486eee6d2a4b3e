"""Where the messages of one JSON document lie, found without parsing the whole of it.

A message list may be one pretty-printed document of hundreds of megabytes. Parsed
whole, every message would be held as Python objects at once (many times the
source's size); instead one pass over its bytes finds where each element of the
message array starts and ends, and each message is decoded and parsed on its own,
when it is read, and let go. The pass looks at strings and brackets only: JSON's
structure is ASCII, so no UTF-8 text inside a string can fake it. Line numbers are
counted as it goes, and a key inside a message is looked up in that message alone,
once per key (``message_lines``): the cost is linear in the document, however many
calls one message holds.

The pass costs a Python step per string of the document. A document of the plain
kind (a top-level array, UTF-8, every element within the exact decoder's reach) of
at most ``WHOLE_LIMIT`` is instead decoded element after element by the decoder
itself, which finds the same bounds at C speed and gives each message's value on
the way (``Document.values``); the pass stays the reference, and the one reading
of any other document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from referee.engine.run.importers.exact import loads, value_at
from referee.engine.run.safejson import JSON_TOKEN

_TEXT_TOKEN = JSON_TOKEN  # over a line already decoded
_TOKEN = re.compile(JSON_TOKEN.pattern.encode(), re.S)  # the same, over a file's bytes
_SPACE = b" \t\r\n"
_BLANK_TEXT = re.compile(r"[ \t\r\n]*")

# Up to this size a document is held decoded whole while its messages are read: a
# run's messages are held by its conversation anyway. Past it, one message at a time.
WHOLE_LIMIT = 8 * 1024 * 1024


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
    values: list[Any] | None = None  # each element's value, when the document was decoded whole
    # a top-level array decoded whole: its value, every element (a number, true... too)
    whole: list[Any] | None = None
    # The line of a second array under "messages" or "traj", which is not read: JSON
    # readers differ on a key given twice, so the run may hold calls that are not here.
    another: int | None = None
    # Where the message array lies, ``[`` to ``]`` (None when cut short): what is beside
    # it (a logged response's "choices", a Responses API "output") is not read.
    span: tuple[int, int] | None = None
    line: int = 1  # the line where the message array opens
    trajectory: bool = False  # whether the top-level object holds a "trajectory" array (SWE-agent's .traj)

    def cut_after_elements(self) -> bool:
        """Whether the document never closes though its last element (if any) was read
        whole: cut between two elements or after its array, so each element read is
        whole and what came after them is lost. A cut inside an element is that
        element's to say."""
        return not self.closed and not (self.elements and self.elements[-1].end is None)

    def value(self, index: int, text: str) -> tuple[Any] | None:
        """``(value,)`` of element ``index``, whose text is ``text``, as ``exact.loads``
        reads it (None when it does not): decoded with the document, or now."""
        return (self.values[index],) if self.values is not None else loads(text)


def message_array(data: bytes | str) -> Document | None:
    """The message array of ``data`` (a file's bytes, or one line already decoded):
    the top-level array, or the top-level object's ``"messages"`` array (``"traj"`` in
    tau-bench's results; ``"history"`` in a SWE-agent trajectory, which holds a
    ``"trajectory"`` array beside it). None when ``data`` is not one JSON document
    holding one (JSON lines, whose first line ends before the data does, are read line
    by line). Offsets are in ``data``'s units.

    A ``"history"`` array beside another message array is that second list
    (``another``), whichever is read: it may hold the run's calls."""
    found = _array_of(data, _ANY_KEYS)
    if found is None or found.base != "/" + HISTORY or found.trajectory:
        return found
    # A "history" with no "trajectory" beside it is no SWE-agent trajectory: its array
    # is not read as the messages, but it is a second list beside the one read.
    other = _array_of(data, MESSAGE_KEYS)
    if other is not None and other.another is None:
        other.another = found.line
    return other


def _array_of(data: bytes | str, keys: tuple[str, ...]) -> Document | None:
    """``message_array`` with the keys ``keys`` naming a message array."""
    whole = decoded_array(data, keys)
    return whole if whole is not None else walked_array(data, keys)


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


MESSAGE_KEYS = ("messages", "traj")  # the keys whose array holds the messages
# SWE-agent's .traj keeps its messages under "history", beside the "trajectory" of
# the same steps: a "history" array is the message list only with a "trajectory" array.
HISTORY, TRAJECTORY = "history", "trajectory"
SIMULATIONS = "simulations"  # tau2-bench's results: a conversation each, its "messages" inside
_ANY_KEYS = MESSAGE_KEYS + (HISTORY, SIMULATIONS)


def key_name(written: str) -> str | None:
    """The name a key written ``written`` (quotes and escapes kept) gives: ``"mess\\u0061ges"``
    is ``messages`` to every JSON reader, so it is to referee; None when it is no string."""
    if "\\" not in written:
        return written[1:-1] if len(written) > 1 and written[-1:] == '"' else None
    found = loads(written)
    return found[0] if found is not None and isinstance(found[0], str) else None


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


def strays(data: bytes, elements: list[Element]) -> list[int]:
    """The index of each message of the array that values not objects (numbers,
    ``true``...: what the pass skips) come right before, reported as no message."""
    found = []
    for index, (before, after) in enumerate(zip(elements, elements[1:]), start=1):
        if before.end is not None and data[before.end:after.start].strip(_SPACE + b","):
            found.append(index)
    return found
