"""Whether an item of a list that is itself a structure holds a value asked for.

``contains`` on a list asks for an item equal to the value. A list of lists or objects
(the questions of a call, each an object; a JSONPath result, a list of what it
selected, such as the one array ``$.tags``) holds no item equal to a text even where
one of its items holds that text: as an item of its own, as a key, as a value at any
depth, or inside a text there. A rule asking such a list whether it contains the text
may mean the outer list or what an item holds; which one cannot be told."""

from __future__ import annotations

from typing import Any, Callable

from referee.engine.checks.folding import find_folded
from referee.engine.equality import equal


def structure_holding(items: list[Any], wanted: Any, ignore_case: bool) -> int | None:
    """The index of the first of ``items`` that is a list or an object holding ``wanted``
    below its top (equal to it, or a text holding a text ``wanted``); None when none does.
    Work linear in the items' sizes: each value is visited once."""
    holds = _holds(wanted, ignore_case)
    for index, item in enumerate(items):
        if isinstance(item, (list, tuple, dict)) and any(holds(inner) for inner in _inside(item)):
            return index
    return None


def _holds(wanted: Any, ignore_case: bool) -> Callable[[Any], bool]:
    def holds(value: Any) -> bool:
        if isinstance(value, str) and isinstance(wanted, str) and wanted:
            return find_folded(value, wanted, "contains", ignore_case) >= 0
        return equal(value, wanted, ignore_case)

    return holds


def _inside(value: Any):
    """Every key and value below ``value`` (a list or an object), depth first; no
    recursion, so the deepest JSON read does not meet Python's limit."""
    pending = [value]
    while pending:
        current = pending.pop()
        inner = list(current.items()) if isinstance(current, dict) else [(None, v) for v in current]
        for key, item in inner:
            if key is not None:
                yield key
            yield item
            if isinstance(item, (list, tuple, dict)):
                pending.append(item)
