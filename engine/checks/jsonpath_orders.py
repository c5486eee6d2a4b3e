"""A JSONPath filter that orders values that have no order decides nothing.

jsonpath-ng follows RFC 9535: ``<``, ``<=``, ``>`` and ``>=`` order two numbers or
two texts, and any other pair is simply false. So ``[?(@.price > 100)]`` drops an
item priced ``"150"`` (or ``null``, ``true``, a list) without a word, and
``count(jsonpath(x, "$[?(@.price > 100)]")) == 0`` passed on it. The language
orders two numbers or two texts only (``engine.checks.compare``: any other pair,
or a NaN, is an ERROR; use ``number(...)`` for text), and a query must not do in
silence what the language refuses.

Each ordering of a filter is watched as the query runs: one that meets a pair of
values without an order (text and a number, null, a boolean, a list or an object
on either side, a NaN), or a number beyond a float's range (infinite to the
filter), is noted, and is false as RFC 9535 has it. When one was met, the query
runs again with each such ordering taken as true. Where both runs select the same
values, no such ordering decided what was selected (the rest of the filter did, or
another value it compared held); else the query's result is unsure, an ERROR that
says which values met.
"""

from __future__ import annotations

import math
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from referee.engine.checks.jsonpath_budget import Find, bounded_find, nodes
from referee.engine.checks.jsonpath_numbers import Fraction
from referee.engine.values import EvalError, render

ORDERINGS = frozenset({"<", "<=", ">", ">="})
_WATCHED = "_referee_watched"


@dataclass
class _Watch:
    """One run of a query: whether an unsure ordering counts as true, and the
    first pair of values without an order that an ordering met."""

    lenient: bool
    met: tuple[object, object] | None = None


_CURRENT: ContextVar[_Watch | None] = ContextVar("referee_jsonpath_watch", default=None)


def find_sure(query: Any, data: Any, text: str) -> list:
    """``bounded_find(query, data, text)``, or an ERROR when an ordering of two values
    without an order (text against a number, null against a number, ...) decided
    which values it selects."""
    _watch(query)
    strict = _Watch(lenient=False)
    found = _run(query, data, text, strict)
    if strict.met is None:
        return found
    lenient = _run(query, data, text, _Watch(lenient=True))
    if _paths(lenient) == _paths(found):
        return found
    left, right = strict.met
    raise EvalError(f"jsonpath {text!r} orders {_kind(left)} against {_kind(right)} ({render(left)[:40]} and "
                    f"{render(right)[:40]}): such a filter neither keeps nor drops the element, so what the "
                    "query selects is unsure; select the elements and compare number(...) in a 'where'")


def _run(query: Any, data: Any, text: str, watch: _Watch) -> list:
    token = _CURRENT.set(watch)
    try:
        return bounded_find(query, data, text)
    finally:
        _CURRENT.reset(token)


def _paths(found: list) -> list[str]:
    return [str(match.full_path) for match in found]


def _watch(query: Any) -> None:
    """Make every ordering of ``query``'s filters note values without an order (once per query)."""
    if getattr(query, _WATCHED, False):
        return
    from jsonpath_ng.ext.filter import Expression  # loaded already: ``query`` is one

    orderings: list[Any] = [node for node in nodes(query) if isinstance(node, Expression) and node.op in ORDERINGS]
    for ordering in orderings:
        ordering.find = _watched(ordering, ordering.find)
    setattr(query, _WATCHED, True)


def _watched(ordering: Any, find: Find) -> Find:
    def find_watched(datum: Any) -> Any:
        found = find(datum)
        watch = _CURRENT.get()
        if found or watch is None:
            return found  # it holds for some value: what else it met decides nothing
        pair = _unordered(ordering, datum)
        if pair is None:
            return found
        if watch.met is None:
            watch.met = pair
        from jsonpath_ng import DatumInContext

        return [DatumInContext.wrap(datum)] if watch.lenient else found

    return find_watched


def _unordered(ordering: Any, datum: Any) -> tuple[object, object] | None:
    """The first pair of values ``ordering`` (a filter's comparison) compared on ``datum``
    that has no order (not two numbers, nor two texts); None when there is none."""
    from jsonpath_ng import DatumInContext, JSONPath

    wrapped = DatumInContext.wrap(datum)
    values = [match.value for match in ordering.target.find(wrapped)]
    operand = ordering.value
    operands = [match.value for match in operand.find(wrapped)] if isinstance(operand, JSONPath) else [operand]
    for left in values:
        for right in operands:
            if not _ordered(left, right):
                return left, right
    return None


def _ordered(left: Any, right: Any) -> bool:
    """Whether the filter orders ``left`` and ``right`` as the language does: two texts,
    or two numbers neither of which is a NaN (``engine.checks.compare.ordered``) nor
    beyond a float's range."""
    if isinstance(left, str) and isinstance(right, str):
        return True
    return _is_number(left) and _is_number(right) and left == left and right == right and not (
        _beyond_floats(left) or _beyond_floats(right))  # NaN != NaN


def _beyond_floats(number: Any) -> bool:
    """A run's number too large for a float (``jsonpath_numbers.Fraction``): the filter
    sees it infinite, so 3E+400 is not more than 2E+400 to it."""
    return isinstance(number, Fraction) and math.isinf(number) and number.exact.is_finite()


def _is_number(value: Any) -> bool:
    # as jsonpath-ng tells a number: a bool is none (a query's Decimals are floats here)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    """What ``value`` is, for the message ("orders null against a number")."""
    if isinstance(value, str):
        return "text"
    if _is_number(value):
        return "NaN" if value != value else "a number beyond a float's range" if _beyond_floats(value) else "a number"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a list" if isinstance(value, list) else "an object"
