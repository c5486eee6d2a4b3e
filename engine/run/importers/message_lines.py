"""Where a key of one message of a JSON document lies: its line, and in a line the
message shares with others its column and JSON Pointer (``jsondoc`` finds where each
message lies; ``openai_sources`` asks here where its keys are)."""

from __future__ import annotations

import bisect
import re
from typing import Any

from referee.engine.run.importers.jsondoc import Element
from referee.engine.run.importers.record import Origin


class MessageLines:
    """Origins inside one message: the line where ``key`` is written the n-th time,
    and, for a message on a line it shares with others (``column`` given: where the
    message starts in its line, 0-based), the key's column and its JSON Pointer
    (``pointer`` is the message's own).

    Each key is looked up once in the message's text (JSON-escaped keys cannot be
    mistaken for it: a key is a string right before a colon), so a message of 5,000
    calls costs 5,000 lookups of a list, not 5,000 scans of the message. Given the
    message's ``value``, the key at a pointer is the one that many keys of that name
    come before it in the message (a call without ``arguments``, or a message's own
    ``name``, would shift a count of calls)."""

    def __init__(self, text: str, first_line: int, name: str, pointer: str = "", column: int | None = None,
                 value: Any = None) -> None:
        self.text = text
        self.first_line = first_line
        self.name = name
        self.pointer = pointer
        self.column = column
        self.value = value
        self.breaks = [m.start() for m in re.finditer("\n", text)] if "\n" in text else []
        self.keys: dict[str, list[int]] = {}
        self.ranks: dict[str, dict[str, int]] = {}

    def origin(self, key: str, nth: int, suffix: str = "") -> Origin:
        """Where ``key`` is: at ``suffix``, its pointer below the message's, when the
        message's value is known, else the n-th ``key`` of the message."""
        offset = 0
        if key:
            offsets = self.keys.get(key)
            if offsets is None:
                offsets = self.keys[key] = key_offsets(self.text, key)
            rank = self._rank(key, suffix, nth)
            offset = offsets[rank] if rank is not None and rank < len(offsets) else 0  # else the message's start
        line = self.first_line + bisect.bisect_left(self.breaks, offset)
        if self.column is None or self.breaks:
            return Origin(self.name, line)
        return Origin(self.name, line, self.pointer + suffix, self.column + offset + 1)

    def _rank(self, key: str, suffix: str, nth: int) -> int | None:
        """How many keys ``key`` come before the one at ``suffix`` (None: the message has
        none there); without the message's value, ``nth``."""
        if not isinstance(self.value, dict) or not suffix:
            return nth
        ranks = self.ranks.get(key)
        if ranks is None:
            ranks = self.ranks[key] = {pointer: n for n, pointer in enumerate(key_pointers(self.value, key))}
        return ranks.get(suffix)


def key_pointers(value: Any, key: str) -> list[str]:
    """The JSON Pointers of the members named ``key`` in ``value``, in the order they
    are written (a decoded object keeps its members' order; each member comes before
    the members inside its value)."""
    found: list[str] = []
    pending: list[tuple[str, str | None, Any]] = [("", None, value)]
    while pending:
        pointer, name, item = pending.pop()
        if name == key:
            found.append(pointer)
        if isinstance(item, dict):
            pending.extend(reversed([(f"{pointer}/{_escaped(k)}", k, v) for k, v in item.items()]))
        elif isinstance(item, list):
            pending.extend(reversed([(f"{pointer}/{n}", None, v) for n, v in enumerate(item)]))
    return found


def _escaped(key: str) -> str:
    """A member's name as a JSON Pointer writes it (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


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
