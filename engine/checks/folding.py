"""Where one text holds another, as a reader sees them: in whole characters.

Text tests compare texts in one form (``text_form``): NFC, so a letter written with a
combining mark ("u" + U+0308, as macOS and some editors write files) is the letter
written whole ("ü"), and a Hangul syllable written as its jamo is the syllable; and
``ignoring case``, folded by ``values.fold_case``, which turns some characters into two
or three (``ß`` is ``ss``, ``ﬁ`` is ``fi``).

A hit in those forms that starts or ends inside what one character (a letter and its
marks) became is no hit: "ß" holds no "s" ignoring case, as ``/s/i`` finds none in
it, and "Mü" holds no "Mu". A hit is taken back to its offset in the text as written,
so evidence cites the line the words are on.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_right
from contextvars import ContextVar
from typing import Callable, Hashable, Sequence, TypeVar

import regex

from referee.dsl.frozen import frozen
from referee.engine.values import fold_case


T = TypeVar("T")
# The forms of one run's long texts (``kept_in``): a response that ten checks read is put
# in its form once, not ten times (each time a second or more on 2 M decomposed
# characters). A form is a function of its text alone, so keeping it changes no verdict.
_KEPT: ContextVar[dict | None] = ContextVar("referee_text_forms", default=None)
_STORE = object()  # the key of a run's forms in its checks' cache
_LONG = 4096  # a shorter text is put in its form again: cheaper than keeping it
INVISIBLE = regex.compile(r"\p{Cf}")  # invisible format characters: U+200B, U+00AD, U+2060, bidi marks ...
# Spaces other than U+0020, which a reader sees as a space: no-break (U+00A0, U+202F, which
# typography puts in "10 km" and "1 250"), en, em, thin, ideographic ...
OTHER_SPACES = regex.compile(r"(?! )\p{Zs}")
# A character a reader sees otherwise than written: as nothing, or as a space.
UNSEEN = regex.compile(r"\p{Cf}|(?! )\p{Zs}")


def as_seen(text: str) -> str:
    """``text`` as a reader sees it: its invisible format characters left out, its other
    spaces a space."""
    if text.isascii():
        return text
    return INVISIBLE.sub("", OTHER_SPACES.sub(" ", text))


def seen_as(character: str) -> str:
    """How a reader sees ``character`` (one ``UNSEEN`` matches), as a message says it is read."""
    return "invisible characters left out" if INVISIBLE.match(character) else "no-break and other spaces read as spaces"


class kept_in:  # lower case, as contextlib.suppress: a context manager used as a function
    """Keep the forms of long texts in ``cache`` (a run's, shared by its checks) while inside.

    A class, not a generator: every assertion of every run enters one, and a
    generator's context manager costs several calls more on each way in and out."""

    __slots__ = ("_kept", "_token")

    def __init__(self, cache: dict) -> None:
        self._kept = cache.setdefault(_STORE, {})

    def __enter__(self) -> None:
        self._token = _KEPT.set(self._kept)

    def __exit__(self, *exc: object) -> None:
        _KEPT.reset(self._token)


def _kept(key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, kept under ``key`` for the rest of the run (for long texts only)."""
    kept = _KEPT.get()
    if kept is None:
        return make()
    try:
        return kept[key]
    except KeyError:
        made = kept[key] = make()
        return made


def kept_form(kind: str, text: str, make: Callable[[str], T]) -> T:
    """``make(text)``, a form of ``text`` named ``kind``: kept for the rest of the run
    when the text is long, as ``text_form`` keeps its own."""
    if len(text) < _LONG:
        return make(text)
    return _kept((kind, text), lambda: make(text))


def text_form(text: str, ignore_case: bool = False) -> str:
    """``text`` as text tests and ``==`` compare it: NFC, and case folded when ignoring case."""
    if len(text) < _LONG:
        return _text_form(text, ignore_case)
    return _kept(("form", ignore_case, text), lambda: _text_form(text, ignore_case))


def _text_form(text: str, ignore_case: bool) -> str:
    if unicodedata.is_normalized("NFC", text):
        return fold_case(text) if ignore_case else text
    text = unicodedata.normalize("NFC", text)
    return unicodedata.normalize("NFC", fold_case(text)) if ignore_case else text


def _joins(ch: str) -> bool:
    """A character that belongs to the one before it: a combining mark, or the vowel or
    final jamo of a Hangul syllable written decomposed."""
    return unicodedata.category(ch).startswith("M") or "\u1160" <= ch <= "\u11ff" or "\ud7b0" <= ch <= "\ud7ff"


@frozen
class Folded:
    """A text in ``text_form``, with each character (and its marks) that did not become
    exactly one character there: where it stands in the form and in the text."""

    # Arrays of machine integers, not tuples of ints: a form is kept for the run
    # (``kept_in``), and a million decomposed letters took 200 MB as tuples, 32 MB so.
    text: str
    starts: Sequence[int]  # where each such character starts in ``text``
    ends: Sequence[int]  # and where it ends
    written_starts: Sequence[int]  # where it starts in the text as written
    written_ends: Sequence[int]  # and where it ends there

    @classmethod
    def of(cls, written: str, ignore_case: bool) -> "Folded":
        if len(written) < _LONG:
            return cls._of(written, ignore_case)
        return _kept(("folded", ignore_case, written), lambda: cls._of(written, ignore_case))

    @classmethod
    def _of(cls, written: str, ignore_case: bool) -> "Folded":
        form = text_form(written, ignore_case)
        if unicodedata.is_normalized("NFC", written) and len(form) == len(written):
            return cls(form, (), (), (), ())  # each character became one: nothing to map
        joining = sorted(c for c in set(written) if _joins(c))
        cluster = re.compile("(?s)." + ("[" + "".join(map(re.escape, joining)) + "]*" if joining else ""))
        starts, ends, written_starts, written_ends = (array("q") for _ in range(4))
        pieces, at = [], 0
        forms: dict[str, str] = {}  # a character and its marks, and their form: most recur
        for found in cluster.finditer(written):
            made = forms.get(found.group())
            if made is None:
                made = forms[found.group()] = text_form(found.group(), ignore_case)
            if len(made) != 1 or found.end() - found.start() != 1:
                starts.append(at)
                ends.append(at + len(made))
                written_starts.append(found.start())
                written_ends.append(found.end())
            pieces.append(made)
            at += len(made)
        # The form of the whole, character by character, so each offset maps back.
        return cls("".join(pieces), starts, ends, written_starts, written_ends)

    def inside(self, at: int) -> int | None:
        """The end of the character ``at`` lies strictly inside, or None at a character's edge."""
        i = bisect_right(self.starts, at) - 1
        return self.ends[i] if i >= 0 and self.starts[i] < at < self.ends[i] else None

    def place(self, at: int) -> int:
        """The offset in the text as written of the character edge ``at``."""
        i = bisect_right(self.starts, at) - 1
        if i < 0:
            return at
        if at == self.starts[i]:
            return self.written_starts[i]
        return self.written_ends[i] + (at - self.ends[i])


def find_folded(text: str, part: str, op: str, ignore_case: bool = True) -> int:
    """Where ``text`` holds ``part`` for ``op`` (``contains``, ``starts_with`` or
    ``ends_with``), compared in ``text_form``, as an offset in ``text``; -1 when it does
    not. Work linear in the two texts, however many hits split a character."""
    folded, wanted = Folded.of(text, ignore_case), text_form(part, ignore_case)
    if op == "starts_with":
        hits = [0] if folded.text.startswith(wanted) else []
    elif op == "ends_with":
        hits = [len(folded.text) - len(wanted)] if folded.text.endswith(wanted) else []
    else:
        return _first_whole(folded, wanted)
    whole = [at for at in hits if _whole(folded, at, len(wanted))]
    return folded.place(whole[0]) if whole else -1


# Hits that split a character passed over one by one, each a search of the text from
# there on, before the rest is read in one pass instead: "ß" * 10**6 holds an "s"
# ignoring case in every half of every ß, and a search per half was a million searches.
_TRIES = 16


def _first_whole(folded: Folded, wanted: str) -> int:
    at = folded.text.find(wanted)
    for _ in range(_TRIES):
        if at < 0:
            return -1
        if _whole(folded, at, len(wanted)):
            return folded.place(at)
        # A hit starting inside a character: the next that can start is past it.
        at = folded.text.find(wanted, folded.inside(at) or at + 1)
    return -1 if at < 0 else _scan(folded, wanted, at)


def _scan(folded: Folded, wanted: str, start: int) -> int:
    """The first hit of ``wanted`` (not empty) at ``start`` or after that splits no
    character, read in one pass (Knuth, Morris and Pratt's: each character of the text
    is read once, and a partial hit falls back along ``wanted`` itself)."""
    text, size, edge = folded.text, len(wanted), _edges(folded, start)
    back = _fallbacks(wanted)
    have = 0  # how much of ``wanted`` the text before ``at`` ends with
    for at in range(start, len(text)):
        char = text[at]
        while have and char != wanted[have]:
            have = back[have - 1]
        if char == wanted[have]:
            have += 1
            if have == size:
                if edge[at + 1 - size - start] and edge[at + 1 - start]:
                    return folded.place(at + 1 - size)
                have = back[have - 1]
    return -1


def _fallbacks(wanted: str) -> list[int]:
    """For each prefix of ``wanted``, the longest proper prefix that also ends it."""
    back, have = [0] * len(wanted), 0
    for at in range(1, len(wanted)):
        while have and wanted[at] != wanted[have]:
            have = back[have - 1]
        if wanted[at] == wanted[have]:
            have += 1
        back[at] = have
    return back


def _edges(folded: Folded, start: int) -> bytearray:
    """For each offset of ``folded.text`` from ``start`` on, 1 at a character's edge,
    0 inside what one character became."""
    edge = bytearray(b"\x01") * (len(folded.text) + 1 - start)
    first = bisect_right(folded.ends, start)
    for begin, high in zip(folded.starts[first:], folded.ends[first:]):
        low = max(begin + 1, start)
        if high > low:
            edge[low - start: high - start] = bytes(high - low)
    return edge


def _whole(folded: Folded, at: int, length: int) -> bool:
    return folded.inside(at) is None and folded.inside(at + length) is None
