"""Looking a claim up in the run's tool calls: the checking half of ``engine.facts.claims``.

``engine.facts.claims`` finds claims in the agent's words; a ``ToolIndex`` says
whether the raw tool log backs each one, and where. The index is built once per
run, one part at a time when the first claim needs it: calls by tool name (and
each name's tail after a separator), JSON leaves by key and by value, and the
numbers the response states by value. Each claim is then a dictionary lookup, so the cost is the size of the
notes plus the size of the calls, never their product.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import TYPE_CHECKING, Any, Iterable, Iterator

if TYPE_CHECKING:
    from referee.engine.run.model import Payload, ToolCall

    Place = tuple[ToolCall, str, Payload]  # a call, "args" or "return", and that payload

QUOTE_MAX = 80
_ANY_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# A character no number literal that Decimal reads can hold (digits of any script,
# "_", ".", "e", signs, and the letters of "Infinity", "NaN" and "sNaN"): text that
# holds one is no number, found without Decimal raising on it.
_NO_LITERAL = re.compile(r"[^\d_.+\-A-Za-z]")
_PERCENT_KEY = re.compile(r"percent|pct|ratio|rate|coverage", re.IGNORECASE)
_NAME_SEPARATORS = re.compile(r"[_\-.:/]")
_WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# Words too common to tell two quantities apart.
_STOPWORDS = frozenset({
    "the", "an", "and", "or", "of", "for", "to", "in", "on", "at", "is", "are", "was", "were",
    "be", "been", "with", "by", "from", "it", "its", "this", "that", "all", "as", "we", "our",
    "has", "have", "had", "there", "here", "return", "args", "body", "data", "value", "result",
})


@dataclass(frozen=True)
class Leaf:
    """One scalar of a call's args or return: where it is and what it holds."""

    call: ToolCall
    path: str  # "args.docStatus", "return.body[0].amount"
    value: Any
    line: int  # the payload's first line

    @property
    def key(self) -> str:
        return self.path.rsplit(".", 1)[-1]


@dataclass(frozen=True)
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
        return len(_WORD.findall(self._line())) >= 3

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


class ToolIndex:
    """The run's calls, indexed for every kind of claim (see the module doc).

    Claims are read in transcript order and a note is backed only by calls before
    it, so the key and returned-value indexes grow call by call as the notes
    advance (``upto``): each call is indexed once, and only the calls before the
    last claim read are indexed at all."""

    def __init__(self, calls: Iterable[ToolCall]) -> None:
        self.calls = tuple(calls)
        self._keyed = 0  # _containers indexed in _by_key so far
        self._by_key: dict[str, list[Place]] = {}
        self._places: dict[str, tuple[int, list[Place]]] = {}  # key: (calls scanned, places)
        self._leaves_with: dict[tuple[str, ...], tuple[dict[str, int], list[Leaf]]] = {}
        self._returned_upto = 0
        self._returned: dict[str, Leaf] = {}
        self._has_key: dict[str, bool] = {}

    @cached_property
    def by_tool(self) -> dict[str, list[ToolCall]]:
        """Calls by tool name and by every tail of it after a separator
        ("expense-mcp_saveDoc": also "mcp_saveDoc" and "saveDoc"), in call order."""
        index: dict[str, list[ToolCall]] = {}
        tails: dict[str, list[str]] = {}  # per tool name: a run calls few tools many times
        for call in self.calls:
            if not call.tool:
                continue
            names = tails.get(call.tool)
            if names is None:
                names = tails[call.tool] = [name for name in _tails(call.tool) if name]
            for name in names:
                index.setdefault(name, []).append(call)
        return index

    @cached_property
    def _containers(self) -> tuple[Place, ...]:
        """``(call, "args" or "return", payload)`` for each payload whose JSON is an
        object or an array (the only ones with keys), in call order."""
        found = []
        for call in self.calls:
            args, result = call.args, call.result
            if args is not None and _has_keys(args):
                found.append((call, "args", args))
            if result is not None and _has_keys(result):
                found.append((call, "return", result))
        return tuple(found)

    @cached_property
    def _container_text(self) -> str:
        """The text of every ``_containers`` payload, joined: one substring test tells that
        none of them holds a word."""
        return "\n".join(place[2].text for place in self._containers)

    def any_before(self, before: float) -> bool:
        return bool(self.calls) and self.calls[0].index < before

    def _key_index(self, before: float) -> dict[str, list[Place]]:
        """``(call, "args" or "return", payload)`` by every key its JSON holds at any
        depth, for the calls before ``before``, in call order. Keys are gathered
        without building paths; ``leaves_with`` walks the few payloads a claim names."""
        containers, index = self._containers, self._by_key
        while self._keyed < len(containers) and containers[self._keyed][0].index < before:
            place = containers[self._keyed]
            self._keyed += 1
            for key in _keys_of(place[2].value):
                index.setdefault(key, []).append(place)
        return index

    def _places_with(self, key: str, before: float) -> list[Place]:
        """What ``_key_index(before)`` holds for ``key``, found without gathering every
        key: a payload whose text holds neither ``"key"`` nor a backslash (which an
        escaped key needs) cannot hold the key, and is not walked."""
        scanned, places = self._places.get(key, (0, []))
        containers, quoted = self._containers, f'"{key}"'
        while scanned < len(containers) and containers[scanned][0].index < before:
            place = containers[scanned]
            scanned += 1
            text = place[2].text
            if (quoted in text or "\\" in text) and key in _keys_of(place[2].value):
                places.append(place)
        self._places[key] = (scanned, places)
        return places

    def leaves_with(self, keys: tuple[str, ...], before: float) -> list[Leaf]:
        """The leaves, in calls before ``before``, whose last key is one of ``keys``,
        in call and document order. Each payload is walked once per ``keys``."""
        used, found = self._leaves_with.get(keys, ({}, []))
        places: dict[int, Place] = {}
        for key in keys:
            new = self._places_with(key, before)
            for place in new[used.get(key, 0):]:
                places.setdefault(id(place[2]), place)
            used[key] = len(new)
        ordered = sorted(places.values(), key=lambda place: (place[0].index, place[1] != "args"))
        wanted = set(keys)
        found.extend(Leaf(call, path, item, payload.line) for call, name, payload in ordered
                     for path, item in scalars(payload.value, name) if _last_key(path) in wanted)
        self._leaves_with[keys] = (used, found)
        return [leaf for leaf in found if leaf.call.index < before]

    def returned(self, value: str, before: float) -> Leaf | None:
        """The first place a successful call before ``before`` returned ``value``."""
        calls = self.calls
        while self._returned_upto < len(calls) and calls[self._returned_upto].index < before:
            call = calls[self._returned_upto]
            self._returned_upto += 1
            if call.result is not None and succeeded(call):
                result = call.result
                for path, item in scalars(result.value if result.is_json else result.text, "return"):
                    if item is not None:
                        self._returned.setdefault(as_text(item), Leaf(call, path, item, result.line))
        return self._returned.get(value)

    def numbers(self, wanted: frozenset[Decimal]) -> dict[Decimal, list[NumberSource]]:
        """Where each number of ``wanted`` stands in the calls (the response, whose
        numbers they back, comes after all): a run's calls hold thousands of numbers,
        its response states a few, and only those are indexed."""
        index: dict[Decimal, list[NumberSource]] = {}
        for call in self.calls if wanted else ():
            args, result = call.args, call.result
            if args is not None and _holds_digit(args.text):
                _index_numbers(index, call, "args", args, wanted)
            if result is not None and _holds_digit(result.text):
                _index_numbers(index, call, "return", result, wanted)
        return index

    def status_keys(self, before: float) -> tuple[str, ...]:
        """Keys ending in "status" (any case), in calls before ``before``."""
        return tuple(sorted(key for key in self._key_index(before) if key.lower().endswith("status")))

    def has_key(self, name: str) -> bool:
        """Is ``name`` a key of some call's JSON? Only payloads whose text holds
        ``"name"`` are looked into: a substring test skips the rest."""
        known = self._has_key.get(name)
        if known is None:
            quoted = f'"{name}"'
            known = self._has_key[name] = quoted in self._container_text and any(
                quoted in payload.text and name in _keys_of(payload.value) for _, _, payload in self._containers)
        return known


def _tails(tool: str) -> set[str]:
    """A tool name and every tail of it after a separator."""
    return {tool} | {tool[m.end():] for m in _NAME_SEPARATORS.finditer(tool)}


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


def _keys_of(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.update(map(str, item))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _last_key(path: str) -> str:
    return path.rsplit(".", 1)[-1]


def _has_keys(payload: Payload) -> bool:
    return payload.is_json and isinstance(payload.value, (dict, list))


def _holds_digit(text: str) -> bool:
    """Ten fast substring scans of the raw text beat walking a long output (and a
    regex walk of it); written out, they cost half what a generator of them costs."""
    return ("0" in text or "1" in text or "2" in text or "3" in text or "4" in text
            or "5" in text or "6" in text or "7" in text or "8" in text or "9" in text)


# ---- the three checks -------------------------------------------------------------------


def check_tool(name: str, needs_success: bool, before: float, index: ToolIndex) -> tuple[bool, str]:
    matching = index.by_tool.get(name, ())
    earlier = [call for call in matching if call.index < before]
    good = [call for call in earlier if not needs_success or succeeded(call)]
    if good:
        call = good[0]
        return True, f"[tool_calls] {call_where(call)}: {call.tool}, status {call.status or 'unknown'}"
    if earlier:
        return False, (f"{name} was called ({', '.join(call_where(c) for c in earlier)}) "
                       "but no call succeeded before the claim")
    if matching:
        return False, f"no [tool_calls] record of {name} before the claim; first call at {call_where(matching[0])}"
    return False, f"no [tool_calls] record of {name} in the transcript"


def check_field(leaves: list[Leaf], field: str, value: str, before: float,
                index: ToolIndex) -> tuple[bool, str]:
    """Backed by an earlier successful call whose ``leaves`` (the claimed key) hold
    ``value``; failing that, when ``value`` is not a bare number, by a successful
    call that returned it (an id the agent read back)."""
    seen: list[str] = []
    for leaf in leaves:
        if leaf.call.index >= before:
            continue
        place = f"{call_where(leaf.call)} has {leaf.path} (line {leaf.line}) = {_show(leaf.value)}"
        if _same_text(leaf.value, value):
            if succeeded(leaf.call):
                return True, place
            place = place.replace(" has ", f" (status {leaf.call.status}) has ", 1)
        seen.append(place)
    back = index.returned(value, before) if decimal(value) is None else None
    if back is not None:
        return True, (f"the value appears in {call_where(back.call)} {back.path} (line {back.line})"
                      f" = {_show(back.value)}")
    if seen:
        return False, "; ".join(seen[:3])
    return False, (f"no tool call before the claim has {field}"
                   + ("" if index.any_before(before) else " (no tool calls at all)"))


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
    by the first value of its own holding it. ``numbers``: ``ToolIndex.numbers`` of
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


# ---- helpers ----------------------------------------------------------------------------


def words_of(text: str) -> set[str]:
    """Lower-cased word stems of ``text``, without the commonest words."""
    found = set()
    for word in _WORD.findall(text):
        word = stem(word.lower())
        if word not in _STOPWORDS:
            found.add(word)
    return found


def stem(word: str) -> str:
    """``word`` without an ending that makes a plural or a verb form: "tests", "passed"
    and "passes" give "test" and "pass". A word ending in "ss" or "us" is no plural
    ("pass", "status"): cutting its "s" would part it from its other forms."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            if suffix == "s" and word.endswith(("ss", "us")):
                return word
            return word[: -len(suffix)]
    return word


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


def succeeded(call: ToolCall) -> bool:
    return (call.status or "success").lower() in ("success", "ok", "succeeded")


def scalars(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """(dotted path, scalar) for every leaf of a JSON value, in document order."""
    stack = [(path, value)]
    while stack:
        here, item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed([(f"{here}.{k}" if here else str(k), v) for k, v in item.items()]))
        elif isinstance(item, list):
            stack.extend(reversed([(f"{here}[{i}]", v) for i, v in enumerate(item)]))
        else:
            yield here, item


def as_text(found: Any) -> str:
    return str(found).lower() if isinstance(found, bool) else str(found)


def _same_text(found: Any, value: str) -> bool:
    if isinstance(found, bool):
        return str(found).lower() == value.lower()
    return found is not None and str(found) == value


def decimal(token: str) -> Decimal | None:
    try:
        number = Decimal(token)
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def call_where(call: ToolCall) -> str:
    if call.step is None:
        return f"the call at {call.location}"
    return f"step {call.step} ({call.location})"


def show_source(source: NumberSource) -> str:
    leaf = source.leaf
    return f"{call_where(leaf.call)} {leaf.path} (line {leaf.line}) = {_show(leaf.value)}"


def _show(value: Any) -> str:
    return quote(value if isinstance(value, str) else str(value), '"')


def quote(text: str, mark: str = "") -> str:
    flat = " ".join(str(text).split())
    if len(flat) > QUOTE_MAX:
        flat = flat[: QUOTE_MAX - 1] + "…"
    return f"{mark}{flat}{mark}"
