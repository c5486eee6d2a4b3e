"""Where one text holds another ``ignoring case``, in whole characters.

``values.fold_case`` folds some characters to two or three (``ß`` is ``ss``, ``ﬁ``
is ``fi``). A hit in the folded texts that starts or ends inside such a character's
folding is no hit: "ß" holds no "s" ignoring case, as ``/s/i`` finds none in it,
while it holds "ss" and "SS". A hit is taken back to its offset in the text as written,
so evidence cites the line the words are on.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from referee.engine.budget import spend
from referee.engine.values import fold_case


@dataclass(frozen=True)
class Folded:
    """A text folded, with the characters whose folding is longer than one."""

    text: str
    starts: tuple[int, ...]  # where each such character's folding starts in ``text``
    ends: tuple[int, ...]  # and where it ends
    added: tuple[int, ...]  # characters folding added up to the end of each

    @classmethod
    def of(cls, written: str) -> "Folded":
        folded = fold_case(written)
        if len(folded) == len(written):  # each character folded to one: nothing to map
            return cls(folded, (), (), ())
        # The characters that lengthen, found by one pass in C over the text.
        long = sorted(c for c in set(written) if len(fold_case(c)) > 1)
        starts, ends, added, extra = [], [], [], 0
        for found in re.finditer("[" + "".join(map(re.escape, long)) + "]", written):
            start = found.start() + extra
            extra += len(fold_case(found.group())) - 1
            starts.append(start)
            ends.append(found.start() + 1 + extra)
            added.append(extra)
        return cls(folded, tuple(starts), tuple(ends), tuple(added))

    def inside(self, at: int) -> int | None:
        """The end of the folding ``at`` lies strictly inside, or None at a character's edge."""
        i = bisect_right(self.starts, at) - 1
        return self.ends[i] if i >= 0 and at < self.ends[i] and at != self.starts[i] else None

    def written(self, at: int) -> int:
        """The offset in the text as written of the character edge ``at``."""
        i = bisect_right(self.ends, at) - 1
        return at - (self.added[i] if i >= 0 else 0)


def find_folded(text: str, part: str, op: str) -> int:
    """Where ``text`` holds ``part`` ignoring case for ``op`` (``contains``, ``starts_with``
    or ``ends_with``), as an offset in ``text``; -1 when it does not. Each hit
    that splits a character's folding costs a step of the assertion's budget."""
    folded, wanted = Folded.of(text), fold_case(part)
    if op == "starts_with":
        hits = [0] if folded.text.startswith(wanted) else []
    elif op == "ends_with":
        hits = [len(folded.text) - len(wanted)] if folded.text.endswith(wanted) else []
    else:
        return _first_whole(folded, wanted)
    whole = [at for at in hits if _whole(folded, at, len(wanted))]
    return folded.written(whole[0]) if whole else -1


def _first_whole(folded: Folded, wanted: str) -> int:
    at = folded.text.find(wanted)
    while at >= 0:
        if _whole(folded, at, len(wanted)):
            return folded.written(at)
        spend(1)
        # A hit starting inside a folding: the next that can start is past it.
        at = folded.text.find(wanted, folded.inside(at) or at + 1)
    return -1


def _whole(folded: Folded, at: int, length: int) -> bool:
    return folded.inside(at) is None and folded.inside(at + length) is None
