"""Maximum bipartite matching, and the recursive ``includes`` relation built on it.

Pairing expected items with actual ones greedily (first fit) makes the result
depend on the order the author wrote them in; a maximum matching does not: it
finds a pairing whenever one exists, so a reordered expected list gives the same
verdict, and duplicates need as many distinct actual elements.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence, TypeVar

from referee.engine.budget import spend
from referee.engine.checks.keys import key_of
from referee.engine.equality import equal, unread_against
from referee.engine.checks.held_json import against_structure
from referee.engine.values import EvalError, UnreadJson, plain_top, render, type_name


def max_matching(adjacency: Sequence[Sequence[int]], right_size: int) -> list[int | None]:
    """For each left vertex, the right vertex it is matched to (or None).

    Augmenting paths (Kuhn's algorithm) with an explicit stack, so long inputs
    cannot exhaust Python's recursion limit. Deterministic: neighbours are tried
    in the order given.
    """
    match_right: list[int | None] = [None] * right_size
    for left in range(len(adjacency)):
        _augment(left, adjacency, match_right)
    match_left: list[int | None] = [None] * len(adjacency)
    for right, owner in enumerate(match_right):
        if owner is not None:
            match_left[owner] = right
    return match_left


def _augment(start: int, adjacency: Sequence[Sequence[int]], match_right: list[int | None]) -> bool:
    seen: set[int] = set()
    # Each frame: (left vertex, iterator position, the right vertex that led here).
    stack: list[list] = [[start, 0, None]]
    while stack:
        frame = stack[-1]
        left, pos = frame[0], frame[1]
        neighbours = adjacency[left]
        if pos >= len(neighbours):
            stack.pop()
            continue
        frame[1] += 1
        right = neighbours[pos]
        if right in seen:
            continue
        seen.add(right)
        owner = match_right[right]
        frame[2] = right
        if owner is None:
            for lf in stack:  # flip the path: every left on the stack takes its right
                match_right[lf[2]] = lf[0]
            return True
        stack.append([owner, 0, None])
    return False


def includes(actual: Any, expected: Any, path: str = "") -> str | None:
    """None when ``actual`` includes ``expected``; else why not, with the path.

    Objects: every expected key present with an including value. Lists: every
    expected element included by a different actual element (maximum matching).
    Scalars: equal without coercion.
    """
    spend(1, "matching list items for 'includes'")  # lists pair every item with every item
    actual, expected = plain_top(actual), plain_top(expected)  # their items: each in its own call
    if isinstance(actual, UnreadJson) and isinstance(expected, (dict, list)):
        raise unread_against(actual, render(expected))  # what it holds cannot be known: never "not an object"
    against_structure(actual, expected, "whether it includes")  # JSON written as a string
    if isinstance(expected, dict):
        return _includes_object(actual, expected, path)
    if isinstance(expected, list):
        return _includes_list(actual, expected, path)
    if equal(actual, expected):
        return None
    return f"{path or 'the value'} is {render(actual)}, not {render(expected)}"


def _includes_object(actual: Any, expected: dict, path: str) -> str | None:
    if not isinstance(actual, dict):
        return f"{path or 'the value'} is {type_name(actual)}, not an object"
    for key, want in expected.items():
        where = f"{path}.{key}" if path else key
        written = key_of(actual, key)  # equal to it in NFC
        if written is None:
            return f"{where} is absent"
        reason = includes(actual[written], want, where)
        if reason:
            return reason
    return None


def _includes_list(actual: Any, expected: list, path: str) -> str | None:
    if not isinstance(actual, list):
        return f"{path or 'the value'} is {type_name(actual)}, not a list"
    unknown: list[EvalError] = []  # pairs whose answer cannot be known (JSON that could not be read)
    adjacency = [[j for j, item in enumerate(actual) if _included(item, want, unknown)] for want in expected]
    matched = max_matching(adjacency, len(actual))
    missing = [expected[i] for i, m in enumerate(matched) if m is None]
    if not missing:
        return None  # a pairing without the unknown pairs: they decide nothing
    if unknown:
        raise unknown[0]
    where = path or "the list"
    return (f"{where} has no distinct element for {render(missing[0])}"
            + (f" (and {len(missing) - 1} more unmatched)" if len(missing) > 1 else "")
            + f"; {len(actual)} elements for {len(expected)} expected")


def _included(item: Any, want: Any, unknown: list[EvalError]) -> bool:
    """Whether ``item`` includes ``want``; False, noted in ``unknown``, when that cannot be known."""
    try:
        return includes(item, want) is None
    except EvalError as exc:
        unknown.append(exc)
        return False


Item = TypeVar("Item")
Candidate = TypeVar("Candidate")


def pair_up(items: Sequence[Item], candidates: Sequence[Candidate],
            fits: Callable[[Item, Candidate], bool]) -> list[int | None]:
    """Match each item to a distinct candidate it fits, maximising matched items."""
    adjacency = [[j for j, cand in enumerate(candidates) if fits(item, cand)] for item in items]
    return max_matching(adjacency, len(candidates))
