"""The shape of a regular expression, read without running it.

``regexes`` asks two questions of every pattern before it runs: can the
linear-time engine (RE2) run it with exactly the meaning the ``regex`` module
gives it (``to_linear``), and, for the patterns only the backtracking engine can
run, can they take exponential time (``backtrack_safe``)? Both read the tree
``parse`` builds from the pattern as the ``regex`` module reads it (version 0
syntax); a construct the reader does not know is an ``Other`` node, which no
question answers in the pattern's favour. What a tree tells about the pattern's cost
and reach is ``regex_shape``'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from referee.dsl.frozen import frozen

SHORTHANDS = "dDwWsS"
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}
_HEX = {"x": 2, "u": 4, "U": 8}
_QUANTIFIER = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")
GROUP_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_OPENER = re.compile(rf"\(\?(?:(?P<plain>:)|(?P<look><=|<!|=|!)|(?P<atomic>>)"
                     rf"|P?<(?P<named>{GROUP_NAME})>|(?P<scoped>[a-zA-Z]*(?:-[a-zA-Z]+)?):"
                     rf"|(?P<inline>[a-zA-Z]+)\)|(?P<comment>#))")


# The most groups one inside another that a pattern may hold, as the language's own
# brackets (``too-deep``): reading a pattern's shape recurses once per group.
MAX_GROUP_DEPTH = 100


class TooDeep(ValueError):
    """The pattern nests more than ``MAX_GROUP_DEPTH`` groups: refused, never read."""


class Unreadable(ValueError):
    """The pattern has a construct this reader cannot place (``regex`` may still
    compile it): nothing is assumed about it."""


@frozen
class Leaf:
    """One position or character: ``kind`` is char, any, bol, eol, short (``\\d``),
    anchor (``\\A \\Z \\b \\B``), class, or inline (global flags, ``(?i)``)."""

    kind: str
    value: object = None


@frozen
class Other:
    """A construct RE2 lacks (backreference, ``\\p{..}``, ...), as written."""

    text: str


@dataclass
class Seq:
    items: list = field(default_factory=list)


@dataclass
class Alt:
    branches: list


@dataclass
class Group:
    """``kind``: capture, plain, named, scoped (``(?i:..)``), look, atomic, other."""

    kind: str
    body: object
    value: str = ""  # the name of a named group, the flags of a scoped one


@dataclass
class Repeat:
    body: object
    low: int
    high: int | None  # None: unbounded
    mode: str = ""  # "?" lazy, "+" possessive
    known: bool = True  # False: a brace the reader does not know ({e<=1})


@frozen
class CharClass:
    """``[...]``: ``items`` are chars, (low, high) ranges and shorthand letters."""

    negated: bool
    items: tuple
    readable: bool = True  # False: a POSIX class, a property, a nested set


def parse(pattern: str, verbose: bool = False) -> object:
    """The tree of ``pattern``; raises ``Unreadable`` where it cannot tell, and
    ``TooDeep`` for groups nested past ``MAX_GROUP_DEPTH``."""
    reader = _Reader(pattern, verbose or _starts_verbose(pattern))
    tree = reader.alternation()
    if reader.pos != len(pattern):
        raise Unreadable(f"unexpected {pattern[reader.pos]!r} at {reader.pos}")
    return tree


def _starts_verbose(pattern: str) -> bool:
    found = re.match(r"\(\?([a-zA-Z]+)\)", pattern)
    return bool(found and "x" in found.group(1))


# A count of more digits than this is read as this many nines: no pattern could be
# compiled with it, and ``int`` refuses a string of thousands of digits.
_COUNT_DIGITS = 18


def count(digits: str) -> int:
    """A repetition count as written (``{12}``), read without ``int``'s limit on digits."""
    if not digits:
        return 0
    return int(digits if len(digits) <= _COUNT_DIGITS else "9" * _COUNT_DIGITS)


class _Reader:
    def __init__(self, pattern: str, verbose: bool) -> None:
        self.text, self.pos, self.verbose = pattern, 0, verbose
        self.depth = 0  # groups open around the reader

    def peek(self, ahead: int = 0) -> str:
        at = self.pos + ahead
        return self.text[at] if at < len(self.text) else ""

    def take(self) -> str:
        if self.pos >= len(self.text):
            raise Unreadable("the pattern ends too early")
        char = self.text[self.pos]
        self.pos += 1
        return char

    def alternation(self) -> object:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.pos += 1
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else Alt(branches)

    def sequence(self) -> Seq:
        items: list = []
        while self.peek() not in ("", "|", ")"):
            atom = self.atom()
            if atom is None:
                continue
            while True:
                repeat = self.quantifier(atom)
                if repeat is None:
                    break
                atom = repeat
            items.append(atom)
        return Seq(items)

    def atom(self) -> object:
        char = self.take()
        if self.verbose and char.isspace():
            return None
        if self.verbose and char == "#":
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end + 1
            return None
        if char == "(":
            return self.group()
        if char == "[":
            return self.char_class()
        if char == "\\":
            return self.escape(in_class=False)
        simple = {".": Leaf("any"), "^": Leaf("bol"), "$": Leaf("eol")}.get(char)
        if simple is not None:
            return simple
        if char in "*+?":
            raise Unreadable(f"nothing to repeat at {self.pos - 1}")
        return Leaf("char", char)

    def quantifier(self, atom: object) -> Repeat | None:
        char = self.peek()
        if char in ("*", "+", "?"):
            self.pos += 1
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
        elif char == "{":
            found = _QUANTIFIER.match(self.text, self.pos)
            if found is None:
                return self.unknown_brace(atom)
            self.pos = found.end()
            low = count(found.group(1))
            high = low if found.group(2) is None else (count(found.group(3)) if found.group(3) else None)
        else:
            return None
        mode = self.peek() if self.peek() in ("?", "+") else ""
        self.pos += len(mode)
        return Repeat(atom, low, high, mode)

    def unknown_brace(self, atom: object) -> Repeat | None:
        """``{`` after an atom that is no count: a literal in ``regex`` unless it
        is a fuzzy constraint; either way RE2 is not told about it."""
        end = self.text.find("}", self.pos)
        if end < 0:
            return None
        self.pos = end + 1
        return Repeat(atom, 0, None, known=False)

    def group(self) -> object:
        if self.peek() != "?":
            return self.group_body("capture")
        found = _OPENER.match(self.text, self.pos - 1)
        if found is None or self.text.startswith("?R)", self.pos):  # `(?R)` calls, it sets no flag R
            return self.other_group()
        self.pos = found.end()
        kind = found.lastgroup
        if kind == "comment":
            end = self.text.find(")", self.pos)
            if end < 0:
                raise Unreadable("unclosed comment")
            self.pos = end + 1
            return None
        if kind == "inline":
            return Leaf("inline", found.group("inline"))
        return self.group_body(kind or "other", found.group(kind) if kind in ("named", "scoped") else "")

    def other_group(self) -> object:
        """``(?P=name)``, ``(?R)``, ``(?(1)..)``, ``(?|..)`` and the rest: kept whole."""
        start = self.pos - 1
        if self.text.startswith(("?P=", "?R)", "?&", "?P>"), self.pos) or self.peek(1).isdigit():
            end = self.text.find(")", self.pos)
            if end < 0:
                raise Unreadable("unclosed group")
            self.pos = end + 1
            return Other(self.text[start:self.pos])
        self.pos += 1
        if self.peek() == "(":  # a condition: (?(1)yes|no)
            end = self.text.find(")", self.pos)
            if end < 0:
                raise Unreadable("unclosed condition")
            self.pos = end + 1
        elif self.peek() == "|":
            self.pos += 1
        else:
            raise Unreadable(f"unknown group at {start}")
        return self.group_body("other")

    def group_body(self, kind: str, value: str = "") -> Group:
        self.depth += 1
        if self.depth > MAX_GROUP_DEPTH:
            raise TooDeep(f"groups nested more than {MAX_GROUP_DEPTH} deep")
        body = self.alternation()
        if self.take() != ")":
            raise Unreadable("unclosed group")
        self.depth -= 1
        return Group(kind, body, value)

    def escape(self, in_class: bool) -> Leaf | Other:
        start = self.pos - 1
        char = self.take()
        if char in SHORTHANDS:
            return Leaf("short", char)
        if not in_class and char in "AZbB":
            return Leaf("anchor", char)
        if in_class and char == "b":
            return Leaf("char", "\b")
        if char in _SIMPLE_ESCAPES:
            return Leaf("char", _SIMPLE_ESCAPES[char])
        if char in _HEX:
            digits = self.text[self.pos:self.pos + _HEX[char]]
            if len(digits) == _HEX[char] and all(d in "0123456789abcdefABCDEF" for d in digits):
                self.pos += len(digits)
                return Leaf("char", chr(int(digits, 16)))
        if not char.isalnum() and char != "_":
            return Leaf("char", char)
        if char in "pPNgL" and self.peek() in ("{", "<"):
            end = self.text.find("}" if self.peek() == "{" else ">", self.pos)
            self.pos = len(self.text) if end < 0 else end + 1
        return Other(self.text[start:self.pos])

    def char_class(self) -> CharClass:
        negated = self.peek() == "^"
        self.pos += negated
        items: list = []
        readable = True
        first = True
        while True:
            char = self.take()
            if char == "]" and not first:
                return CharClass(negated, tuple(items), readable)
            first = False
            if char == "[":
                readable = False
                if self.peek() == ":":
                    end = self.text.find(":]", self.pos)
                    self.pos = len(self.text) if end < 0 else end + 2
                continue
            member = self.escape(in_class=True) if char == "\\" else Leaf("char", char)
            if isinstance(member, Other):
                readable = False
                continue
            items.append(self.range_from(member))

    def range_from(self, member: Leaf) -> object:
        """``a-z`` when ``member`` starts a range, else the member alone."""
        if member.kind != "char" or self.peek() != "-" or self.peek(1) in ("]", ""):
            return member.value if member.kind == "char" else member
        saved = self.pos
        self.pos += 1
        char = self.take()
        high = self.escape(in_class=True) if char == "\\" else Leaf("char", char)
        if not isinstance(high, Leaf) or high.kind != "char":
            self.pos = saved
            return member.value
        return (member.value, high.value)
