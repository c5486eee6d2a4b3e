"""A pattern written for the ``regex`` module, translated for RE2 with the same meaning.

RE2 matches in time linear in the text, so no match needs a timeout. Its
syntax is close to the ``regex`` module's but not its meaning everywhere; the
translation bridges each difference, and whatever it cannot bridge raises
``Unsupported`` (the pattern then runs on the backtracking engine):

- ``\\d \\w \\s`` (and their negations, in and out of classes) are Unicode in
  ``regex`` and ASCII in RE2: they become classes of the very characters the
  installed ``regex`` module matches, read from it once (``shorthand_ranges``).
- ``$`` without the ``m`` flag also matches before a final newline in ``regex``,
  only at the end in RE2. Where nothing but another ``$`` follows it, it
  becomes ``\\n?\\z`` for a search (the match's start, all evidence uses, is
  the same) and ``\\z`` for a full match (which must end at the end anyway);
  elsewhere it is not translated.
- ``\\Z`` is RE2's ``\\z``; inline flags other than ``i m s`` (``x`` above all),
  possessive and fuzzy repetitions, lookarounds, backreferences, properties and
  POSIX classes are not translated.
- ``\\b \\B`` are ASCII in RE2: exact on a text with no non-ASCII word
  character, which ``Linear.boundary`` makes the caller check
  (``ascii_boundaries``).
- Ignoring case, ``regex`` takes ``i`` for ``İ`` (U+0130) and ``I`` for ``ı``
  (U+0131), RE2 neither: a pattern holding either letter is not translated; any
  other is exact on a text with neither, which ``Linear.caseless`` makes the
  caller check (``TURKISH_I``).
"""

from __future__ import annotations

import array
import sys
from collections.abc import Iterable
from functools import cache

import regex

from referee.dsl.frozen import frozen
from referee.engine.regex_syntax import Alt, CharClass, Group, Leaf, Other, Repeat, Seq

_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_LINEAR_FLAGS = frozenset("ims")  # the flags RE2 takes as regex means them
_SURROGATES = (0xD800, 0xDFFF)
_UTF32 = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"
# The letters on which RE2's case-insensitive matching is not the ``regex`` module's.
TURKISH_I = ("\u0130", "\u0131")


class Unsupported(ValueError):
    """The pattern has something RE2 cannot run with the ``regex`` module's meaning."""


@frozen
class Linear:
    """RE2 texts of one pattern: for a search and for a full match, whether
    it has ``\\b``/``\\B`` (exact only on texts ``ascii_boundaries`` accepts), and
    whether any of it ignores case (exact only on texts without ``TURKISH_I``)."""

    search: str
    full: str
    boundary: bool
    caseless: bool = False


def to_linear(tree: object, flags: str) -> Linear:
    """The RE2 texts for ``tree`` (``regex_syntax.parse``) under ``flags`` (letters
    of ``i m s``); raises ``Unsupported``."""
    items = tree.items if isinstance(tree, Seq) else [tree]
    while items and isinstance(items[0], Leaf) and items[0].kind == "inline":
        flags += str(items[0].value)  # leading global flags: the pattern's own
        items = items[1:]
    if not set(flags) <= _LINEAR_FLAGS:
        raise Unsupported(f"flags {flags}")
    body = Seq(items)
    texts = []
    boundary = []
    caseless = "i" in flags
    for mode in ("search", "full"):
        writer = _Writer(mode)
        text = writer.node(body, at_end=True, multiline="m" in flags)
        boundary.append(writer.boundary)
        caseless = caseless or writer.caseless
        prefix = "".join(sorted(set(flags)))
        texts.append(f"(?{prefix}){text}" if prefix else text)
    if caseless and _names_turkish_i(body):
        raise Unsupported("İ or ı, ignoring case")  # a text without them may still differ
    return Linear(texts[0], texts[1], boundary[0], caseless)


def _class_item_holds(item: object, codes: list[int]) -> bool:
    """Whether a class's item (a character, a range, a shorthand) holds a code of ``codes``."""
    if isinstance(item, tuple):
        return any(ord(item[0]) <= code <= ord(item[1]) for code in codes)
    if isinstance(item, Leaf):  # a shorthand: the characters the reference gives it
        return any(regex.fullmatch(f"\\{item.value}", chr(code)) for code in codes)
    return isinstance(item, str) and len(item) == 1 and ord(item) in codes


def _names_turkish_i(tree: object) -> bool:
    """Whether the pattern holds İ or ı itself: as a character, or in a class's range."""
    codes = [ord(letter) for letter in TURKISH_I]
    if isinstance(tree, Leaf):
        return tree.kind == "char" and tree.value in TURKISH_I
    if isinstance(tree, CharClass):
        return any(_class_item_holds(item, codes) for item in tree.items)
    children = tree.items if isinstance(tree, Seq) else tree.branches if isinstance(tree, Alt) else (
        [tree.body] if isinstance(tree, (Group, Repeat)) else [])
    return any(_names_turkish_i(child) for child in children)


class _Writer:
    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.boundary = False
        self.caseless = False  # a group turns the i flag on

    def node(self, tree: object, at_end: bool, multiline: bool) -> str:
        if isinstance(tree, Seq):
            return self.seq(tree, at_end, multiline)
        if isinstance(tree, Alt):
            return "|".join(self.node(b, at_end, multiline) for b in tree.branches)
        if isinstance(tree, Group):
            return self.group(tree, at_end, multiline)
        if isinstance(tree, Repeat):
            return self.repeat(tree, multiline)
        if isinstance(tree, CharClass):
            return char_class(tree)
        if isinstance(tree, Leaf):
            return self.leaf(tree, at_end, multiline)
        raise Unsupported(tree.text if isinstance(tree, Other) else "an unknown construct")

    def seq(self, tree: Seq, at_end: bool, multiline: bool) -> str:
        parts = []
        for number, item in enumerate(tree.items):
            rest = tree.items[number + 1:]
            end = at_end and all(isinstance(i, Leaf) and i.kind == "eol" for i in rest)
            parts.append(self.node(item, end, multiline))
        return "".join(parts)

    def group(self, tree: Group, at_end: bool, multiline: bool) -> str:
        if tree.kind == "scoped":
            flags = tree.value
            if not set(flags.replace("-", "")) <= _LINEAR_FLAGS:
                raise Unsupported(f"flags {flags}")
            on, _, off = flags.partition("-")
            inner = (multiline or "m" in on) and "m" not in off
            self.caseless = self.caseless or "i" in on
            return f"(?{flags}:{self.node(tree.body, at_end, inner)})"
        opener = {"capture": "(", "plain": "(?:", "named": f"(?P<{tree.value}>"}.get(tree.kind)
        if opener is None:
            raise Unsupported(f"a {tree.kind} group")
        return f"{opener}{self.node(tree.body, at_end, multiline)})"

    def repeat(self, tree: Repeat, multiline: bool) -> str:
        if tree.mode == "+" or not tree.known:
            raise Unsupported("a possessive or fuzzy repetition")
        body = self.node(tree.body, False, multiline)
        if tree.high is None:
            count = {0: "*", 1: "+"}.get(tree.low, f"{{{tree.low},}}")
        elif tree.low == 0 and tree.high == 1:
            count = "?"
        else:
            count = f"{{{tree.low}}}" if tree.low == tree.high else f"{{{tree.low},{tree.high}}}"
        return f"(?:{body}){count}{'?' if tree.mode == '?' else ''}"

    def leaf(self, tree: Leaf, at_end: bool, multiline: bool) -> str:
        kind, value = tree.kind, tree.value
        if kind == "char":
            return _char(str(value))
        if kind in ("any", "bol"):
            return "." if kind == "any" else "^"
        if kind == "eol":
            return self.end_of_line(at_end, multiline)
        if kind == "short":
            return shorthand_class(str(value))
        if kind == "anchor":
            if value in ("b", "B"):
                self.boundary = True
            return {"A": r"\A", "Z": r"\z", "b": r"\b", "B": r"\B"}[str(value)]
        raise Unsupported("inline flags inside the pattern")

    def end_of_line(self, at_end: bool, multiline: bool) -> str:
        if multiline:
            return "$"
        if not at_end:
            raise Unsupported("'$' followed by more of the pattern")
        return r"(?:\n?\z)" if self.mode == "search" else r"\z"


def _char(char: str) -> str:
    return char if char in _PLAIN else f"\\x{{{ord(char):X}}}"


def char_class(tree: CharClass) -> str:
    if not tree.readable:
        raise Unsupported("a POSIX class, a property or a nested set")
    parts = []
    for item in tree.items:
        if isinstance(item, tuple):
            parts.append(f"{_char(item[0])}-{_char(item[1])}")
        elif isinstance(item, Leaf):  # a shorthand
            parts.append(shorthand_ranges(str(item.value)))
        else:
            parts.append(_char(item))
    return f"[{'^' if tree.negated else ''}{''.join(parts)}]"


def shorthand_class(letter: str) -> str:
    return f"[{shorthand_ranges(letter)}]"


@cache
def shorthand_ranges(letter: str) -> str:
    """The inside of an RE2 class holding exactly what ``\\<letter>`` matches in the
    installed ``regex`` module (``\\W`` what ``\\w`` does not), as ranges."""
    ranges = _matched_ranges(letter.lower())
    return _ranges_text(_complement(ranges) if letter.isupper() else ranges)


def _ranges_text(ranges: Iterable[tuple[int, int]]) -> str:
    return "".join(_char(chr(low)) if low == high else f"{_char(chr(low))}-{_char(chr(high))}"
                   for low, high in ranges)


def _matched_ranges(letter: str) -> tuple[tuple[int, int], ...]:
    return _class_ranges()[letter]


@cache
def _class_ranges() -> dict[str, tuple[tuple[int, int], ...]]:
    """The code point ranges of ``\\d \\w \\s`` as ``regex`` matches them, read from
    the text of every character but the surrogates, a block at a time."""
    found: dict[str, list[tuple[int, int]]] = {letter: [] for letter in "dws"}
    for start, end in _blocks():
        text = array.array("I", range(start, end)).tobytes().decode(_UTF32)
        for letter, ranges in found.items():
            for match in regex.finditer(f"\\{letter}+", text):
                low, high = start + match.start(), start + match.end() - 1
                if ranges and ranges[-1][1] == low - 1:  # a run that goes on from the last block
                    low = ranges.pop()[0]
                ranges.append((low, high))
    return {letter: tuple(ranges) for letter, ranges in found.items()}


def _blocks(size: int = 0x10000):
    for first, last in ((0, _SURROGATES[0]), (_SURROGATES[1] + 1, 0x110000)):
        for start in range(first, last, size):
            yield start, min(start + size, last)


def _complement(ranges: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    found, start = [], 0
    for low, high in sorted([*ranges, _SURROGATES, (0x110000, 0x110000)]):
        if low > start:
            found.append((start, low - 1))
        start = max(start, high + 1)
    return sorted(r for r in found if r[1] < 0x110000)


@cache
def non_ascii_word_class() -> str:
    """An RE2 class of the non-ASCII characters ``regex`` counts as word characters."""
    return f"[{_ranges_text((max(low, 0x80), high) for low, high in _matched_ranges('w') if high > 0x7F)}]"
