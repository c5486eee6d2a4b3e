"""Looking a claim up in the run's tool calls: the checking half of ``engine.facts.claims``.

``engine.facts.claims`` finds claims in the agent's words; a ``ToolIndex`` says
whether the raw tool log backs each one, and where. The index is built once per
run, one part at a time when the first claim needs it: calls by tool name (and
each name's tail after a separator), JSON leaves by key and by value (the numbers
the response states are ``claim_numbers``'). Each claim is then a dictionary lookup, so the cost is the size of the
notes plus the size of the calls, never their product.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from referee.dsl.frozen import frozen

if TYPE_CHECKING:
    from referee.engine.run.model import Payload, ToolCall

    Place = tuple[ToolCall, str, Payload]  # a call, "args" or "return", and that payload

QUOTE_MAX = 80
_NAME_SEPARATORS = re.compile(r"[_\-.:/]")
WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]+")
# Words too common to tell two quantities apart.
_STOPWORDS = frozenset({
    "the", "an", "and", "or", "of", "for", "to", "in", "on", "at", "is", "are", "was", "were",
    "be", "been", "with", "by", "from", "it", "its", "this", "that", "all", "as", "we", "our",
    "has", "have", "had", "there", "here", "return", "args", "body", "data", "value", "result",
})


@frozen
class Leaf:
    """One scalar of a call's args or return: where it is and what it holds."""

    call: ToolCall
    path: str  # "args.docStatus", "return.body[0].amount"
    value: Any
    line: int  # the payload's first line

    @property
    def key(self) -> str:
        return self.path.rsplit(".", 1)[-1]


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
        place = f"{call_where(leaf.call)} has {leaf.path} (line {leaf.line}) = {show_value(leaf.value)}"
        if _same_text(leaf.value, value):
            if succeeded(leaf.call):
                return True, place
            place = place.replace(" has ", f" (status {leaf.call.status}) has ", 1)
        seen.append(place)
    back = index.returned(value, before) if decimal(value) is None else None
    if back is not None:
        return True, (f"the value appears in {call_where(back.call)} {back.path} (line {back.line})"
                      f" = {show_value(back.value)}")
    if seen:
        return False, "; ".join(seen[:3])
    return False, (f"no tool call before the claim has {field}"
                   + ("" if index.any_before(before) else " (no tool calls at all)"))


# ---- helpers ----------------------------------------------------------------------------


def words_of(text: str) -> set[str]:
    """Lower-cased word stems of ``text``, without the commonest words."""
    found = set()
    for word in WORD.findall(text):
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


def show_value(value: Any) -> str:
    return quote(value if isinstance(value, str) else str(value), '"')


def quote(text: str, mark: str = "") -> str:
    flat = " ".join(str(text).split())
    if len(flat) > QUOTE_MAX:
        flat = flat[: QUOTE_MAX - 1] + "…"
    return f"{mark}{flat}{mark}"
