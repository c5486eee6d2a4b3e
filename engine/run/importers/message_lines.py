"""Where a key of one message of a JSON document lies: its line, and in a line the
message shares with others its column and JSON Pointer (``jsondoc`` finds where each
message lies; ``openai_sources`` asks here where its keys are)."""

from __future__ import annotations

import bisect
import functools
import re
from typing import Any

from referee.engine.run.importers.jsondoc import Element
from referee.engine.run.importers.record import Origin
from referee.engine.text import ascii_digits


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
                 value: Any = None, late: bool = False) -> None:
        self.text = text
        self.first_line = first_line
        self.name = name
        self.pointer = pointer
        self.column = column
        self.value = value
        self.breaks = [m.start() for m in re.finditer("\n", text)] if "\n" in text else []
        self.keys: dict[str, list[int]] = {}
        self.ranks: dict[tuple[int, str], int] | None = None  # member_ranks of the value, when asked
        self.found: dict[str, int | None] = {}  # pointer below the message -> its key's rank
        # each place asked for, as found: a user's turn is cited where its text is and again
        # as the request left open, and a place cited in evidence is asked for again and again
        self.origins: dict[tuple[str, int, str], Origin] = {}
        # a place on the line the message shares is given by its pointer alone, its column
        # left to be found when it is cited (a run graded in memory cites few of them)
        self.late = late and column is not None and not self.breaks

    def origin(self, key: str, nth: int, suffix: str = "") -> Origin:
        """Where ``key`` is: at ``suffix``, its pointer below the message's, when the
        message's value is known, else the n-th ``key`` of the message. ``late``: on
        the line the message shares, without its column (``placed`` finds it)."""
        if self.late:
            return Origin(self.name, self.first_line, self.pointer + suffix)
        asked = (key, nth, suffix)
        found = self.origins.get(asked)
        if found is None:
            found = self.origins[asked] = self.placed(key, nth, suffix)
        return found

    def placed(self, key: str, nth: int, suffix: str = "") -> Origin:
        """``origin``, found anew (the reference: ``origin`` keeps what this gives)."""
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
        none there); without the message's value, ``nth``.

        Mostly the keys of that name are the ones at the same place in each element of
        one list (every call's ``function/arguments``): then each rank is counted among
        those, all at once; otherwise among all members of the message, in the order
        written."""
        if not isinstance(self.value, dict) or not suffix:
            return nth
        if suffix not in self.found:
            parts = _parts(suffix)
            if len(self.keys[key]) <= 1:  # written once at most: the one, when the member is there
                there = parts[0] in self.value if len(parts) == 1 else _member_at(self.value, parts) is not None
                self.found[suffix] = 0 if there else None
            elif not self._count_alike(key, suffix, parts):
                self.ranks = member_ranks(self.value) if self.ranks is None else self.ranks
                place = _member_at(self.value, parts)
                self.found[suffix] = None if place is None else self.ranks.get((id(place[0]), place[1]))
        return self.found[suffix]

    def _count_alike(self, key: str, suffix: str, parts: tuple[str, ...]) -> bool:
        """Ranks for the member at ``parts`` and its like (the member at the same place in
        each element of the first list on its way) when they are all the keys ``key``
        the message writes; False when they are not."""
        holder = self.value
        for at, part in enumerate(parts[:-1]):
            if isinstance(holder, list):
                present = [_member_at(element, parts[at + 1:]) is not None for element in holder]
                if sum(present) != len(self.keys[key]):
                    return False
                pieces = suffix.split("/")
                head, tail = "/".join(pieces[:at + 1]), "/".join(pieces[at + 2:])
                rank = 0
                for index, there in enumerate(present):
                    self.found[f"{head}/{index}/{tail}"] = rank if there else None
                    rank += there
                self.found.setdefault(suffix, None)  # an index past the list's end
                return True
            holder = holder.get(part) if isinstance(holder, dict) else None
        return False


class SharedLine:
    """The places of a message on a line it shares with others, whose value is known,
    as ``MessageLines`` gives them when ``late``: each by the message's line and its
    JSON Pointer alone, its column found when it is cited, so the message's text is
    not looked at while it is read."""

    def __init__(self, name: str, line: int, pointer: str) -> None:
        self.name, self.line, self.pointer = name, line, pointer

    def origin(self, key: str, nth: int, suffix: str = "") -> Origin:
        return Origin(self.name, self.line, self.pointer + suffix)


def member_ranks(value: Any) -> dict[tuple[int, str], int]:
    """For each member of the objects in ``value`` (by its object's id and its name),
    how many members of that name are written before it: in the order written (a
    decoded object keeps its members' order; a member comes before those inside it)."""
    ranks: dict[tuple[int, str], int] = {}
    counts: dict[str, int] = {}
    pending: list[tuple[Any, Any, Any]] = [(None, None, value)]  # (its object, its name, the value)
    while pending:
        holder, name, item = pending.pop()
        if holder is not None:
            ranks[(id(holder), name)] = counts.get(name, 0)
            counts[name] = ranks[(id(holder), name)] + 1
        if isinstance(item, dict):
            pending.extend([(item, k, v) for k, v in reversed(item.items())])
        elif isinstance(item, list):
            pending.extend([(None, None, v) for v in reversed(item)])
    return ranks


def _member_at(value: Any, parts: tuple[str, ...]) -> tuple[dict, str] | None:
    """The object and the name of the member at the pointer of ``parts``, if there is one."""
    if not parts:
        return None
    for part in parts[:-1]:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and ascii_digits(part, most=9) and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return (value, parts[-1]) if isinstance(value, dict) and parts[-1] in value else None


@functools.lru_cache(maxsize=256)
def _parts(pointer: str) -> tuple[str, ...]:
    """The names and indexes of a JSON Pointer (the few a reader asks for, again and again)."""
    return tuple(part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:])


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
    lines = [element.line for element in elements] + [None]  # lines[-1], the line before the first, is None too
    for n, element in enumerate(elements):
        shared = lines[n - 1] == element.line or lines[n + 1] == element.line
        if n == 0 or elements[n - 1].line != element.line:
            column = len(data[data.rfind(b"\n", 0, element.start) + 1:element.start].decode("utf-8", "replace"))
        else:
            column += len(data[at:element.start].decode("utf-8", "replace"))
        at = element.start
        found.append(column if shared else None)
    return found
