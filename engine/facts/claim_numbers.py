"""The numbers a response states, looked up in the run's calls (``engine.facts.claims``).

A run's calls hold thousands of numbers and its response states a few: only those
are indexed (``numbers_index``), each where a call's args or return hold it, and
``check_number`` says whether one of those places is the same quantity.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from referee.dsl.frozen import frozen
from referee.engine.facts.claim_lookup import WORD, Leaf, call_where, decimal, show_value, words_of

if TYPE_CHECKING:
    from referee.engine.run.model import Payload, ToolCall

_ANY_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# A character no number literal that Decimal reads can hold (digits of any script,
# "_", ".", "e", signs, and the letters of "Infinity", "NaN" and "sNaN"): text that
# holds one is no number, found without Decimal raising on it.
_NO_LITERAL = re.compile(r"[^\d_.+\-A-Za-z]")
_PERCENT_KEY = re.compile(r"percent|pct|ratio|rate|coverage", re.IGNORECASE)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@frozen
class NumberSource:
    """A number inside a leaf: ``offset`` is where it starts in the leaf's text (0 for
    a JSON number). Its quantity words are computed only when a claim asks."""

    leaf: Leaf
    offset: int

    @property
    def in_prose(self) -> bool:
        """True for a number inside a sentence (its line holds three words or more:
        "found 42 files in 3 folders"), not a value of its own: a JSON number, text
        that is the number alone, or a line of data (``"amount": "154.00",``, a CSV row)."""
        value = self.leaf.value
        if not isinstance(value, str) or decimal(value.strip().replace(",", "")) is not None:
            return False
        return len(WORD.findall(self._line())) >= 3

    def _line(self) -> str:
        """The line of the leaf's text that holds the number (lines end at a line
        break, or at a ``\\n`` written inside the text)."""
        text = str(self.leaf.value)
        begin = max(text.rfind("\n", 0, self.offset), text.rfind("\\n", 0, self.offset)) + 1
        end = min((e for e in (text.find("\n", self.offset), text.find("\\n", self.offset)) if e >= 0),
                  default=len(text))
        return text[begin:end]

    def percent(self) -> bool:
        """Is it a percentage: ``%`` right after it, or a key that says so?"""
        value = self.leaf.value
        if isinstance(value, str):
            match = _ANY_NUMBER.match(value, self.offset)
            if match is not None and value[match.end():match.end() + 2].lstrip()[:1] == "%":
                return True
        return _PERCENT_KEY.search(self.leaf.path) is not None

    def words(self) -> frozenset[str]:
        """The key path's words, and for a number inside text the words of its line."""
        found = set(words_of(" ".join(_CAMEL.sub(" ", part) for part in re.split(r"[.\[\]_]", self.leaf.path))))
        if isinstance(self.leaf.value, str):
            found |= words_of(self._line())
        return frozenset(found)


def numbers_index(calls: Iterable[ToolCall], wanted: frozenset[Decimal]) -> dict[Decimal, list[NumberSource]]:
    """Where each number of ``wanted`` stands in the calls (the response, whose
    numbers they back, comes after all): a run's calls hold thousands of numbers,
    its response states a few, and only those are indexed."""
    index: dict[Decimal, list[NumberSource]] = {}
    for call in calls if wanted else ():
        args, result = call.args, call.result
        if args is not None and _holds_digit(args.text):
            _index_numbers(index, call, "args", args, wanted)
        if result is not None and _holds_digit(result.text):
            _index_numbers(index, call, "return", result, wanted)
    return index


def _index_numbers(index: dict[Decimal, list[NumberSource]], call: ToolCall, name: str,
                   payload: Payload, wanted: frozenset[Decimal]) -> None:
    value = payload.value if payload.is_json else payload.text
    for path, item, number, offset in numbers_in(value, name, wanted):
        index.setdefault(number, []).append(NumberSource(Leaf(call, path, item, payload.line), offset))


def numbers_in(value: Any, name: str, wanted: frozenset[Decimal]) -> Iterator[tuple[str, Any, Decimal, int]]:
    """``(path, leaf, number, offset)`` for each number of ``wanted`` that a leaf of
    ``value`` holds (``numbers_at``), leaves in ``scalars``' order and paths as it
    writes them. A leaf's path is written only when it holds one: a payload has
    thousands of leaves, and a claim names few numbers."""
    stack: list[tuple[str | None, Any, bool, Any]] = [(None, name, False, value)]  # parent path, key, in a list
    while stack:
        parent, key, listed, item = stack.pop()
        if isinstance(item, (dict, list)):
            here = _path(parent, key, listed)
            children = item.items() if isinstance(item, dict) else enumerate(item)
            stack.extend(reversed([(here, k, isinstance(item, list), v) for k, v in children]))
            continue
        if isinstance(item, int) and not isinstance(item, bool):  # most leaves: asked without a Decimal
            if item in wanted:  # an int and the Decimal of its digits are equal, and hash alike
                yield _path(parent, key, listed), item, Decimal(item), 0
            continue
        if isinstance(item, str) and not _holds_digit(item):
            continue
        for number, offset in numbers_at(item):
            if number in wanted:
                yield _path(parent, key, listed), item, number, offset


def _path(parent: str | None, key: Any, listed: bool) -> str:
    if parent is None:
        return key
    if listed:
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else str(key)


def _holds_digit(text: str) -> bool:
    """Ten fast substring scans of the raw text beat walking a long output (and a
    regex walk of it); written out, they cost half what a generator of them costs."""
    return ("0" in text or "1" in text or "2" in text or "3" in text or "4" in text
            or "5" in text or "6" in text or "7" in text or "8" in text or "9" in text)


def check_number(number: Decimal, noun: bool, claim_words: frozenset[str],
                 numbers: dict[Decimal, list[NumberSource]], percent: bool = False) -> NumberSource | None:
    """Where a call's args or return hold ``number`` as the same quantity.

    Evidence must be about the same thing as the claim. A number said with a noun
    ("17 tests"), or found inside a sentence of a tool's output, needs a source
    that shares a word with the claim's clause (a key named ``tests_passed``, "17 passed" in a
    log line): "found 17 files" is another quantity. A percentage ("100%") needs
    one too, or a source that is itself a percentage. A number in the prose of a
    call's args (a subagent's description, a file the agent wrote) is the agent's
    own words, never evidence. A bare number ("189.00 EUR", a table cell) is backed
    by the first value of its own holding it. ``numbers``: ``numbers_index`` of
    (at least) ``number``.
    """
    for source in numbers.get(number, ()):
        if source.in_prose and source.leaf.path.startswith("args"):
            continue
        shared = bool(source.words() & claim_words)
        if percent:
            if shared or source.percent():
                return source
        elif noun or source.in_prose:
            if shared:
                return source
        else:
            return source
    return None


def numbers_at(value: Any) -> Iterator[tuple[Decimal, int]]:
    """Each number a leaf holds, with its offset in the leaf's text."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float, Decimal)):
        number = decimal(str(value))
        if number is not None:
            yield number, 0
        return
    text = str(value)
    if not _holds_digit(text):
        return
    stripped = text.strip()
    whole = decimal(stripped) if _NO_LITERAL.search(stripped) is None else None
    if whole is not None:
        yield whole, 0
        return
    for match in _ANY_NUMBER.finditer(text):
        number = decimal(match.group(0))
        if number is not None:
            yield number, match.start()


def show_source(source: NumberSource) -> str:
    leaf = source.leaf
    return f"{call_where(leaf.call)} {leaf.path} (line {leaf.line}) = {show_value(leaf.value)}"
