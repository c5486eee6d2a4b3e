"""A JSONPath query's arithmetic computes numbers, or is an ERROR.

jsonpath-ng computes ``$.a * 3`` and ``$.a + $.b`` with Python's operators, whatever
the values are: a price written as text, ``"150" * 2``, gives the text
``"150150"``; ``"150" + 2`` raises, and jsonpath-ng then gives no value at all, as
it does when ``$.items[*].price * $.items[*].qty`` finds more prices than
quantities. A query that selected nothing passes ``count(jsonpath(...)) == 0``.
Each operation of a query is checked before it computes: every value it meets must
be a number, and two lists of values must pair up; else the query is an ERROR
that says which values met. An operand that selects nothing still computes nothing.
"""

from __future__ import annotations

from typing import Any

from referee.engine.checks.jsonpath_budget import Find, nodes
from referee.engine.values import EvalError, render

_CHECKED = "_referee_arithmetic_checked"


def check_arithmetic(query: Any, text: str) -> None:
    """Make every operation of ``query`` refuse what is not a number (once per query);
    ``text`` is the query as written, for the message."""
    if getattr(query, _CHECKED, False):
        return
    from jsonpath_ng.ext.arithmetic import Operation  # loaded already: ``query`` is one

    operations: list[Any] = [node for node in nodes(query) if isinstance(node, Operation)]
    for operation in operations:
        operation.find = _checked(operation, operation.find, text)
    setattr(query, _CHECKED, True)


def _checked(operation: Any, find: Find, text: str) -> Find:
    def find_checked(datum: Any) -> Any:
        _operands(operation, datum, text)
        return find(datum)

    return find_checked


def _operands(operation: Any, datum: Any, text: str) -> None:
    """EvalError when ``operation`` would compute on ``datum`` with what is not a number,
    or pair two lists of values of different lengths."""
    from jsonpath_ng import DatumInContext, JSONPath

    wrapped = DatumInContext.wrap(datum)
    sides = [[match.value for match in side.find(wrapped)] if isinstance(side, JSONPath) else [side]
             for side in (operation.left, operation.right)]
    left, right = sides
    if not left or not right:
        return  # nothing to compute: jsonpath-ng selects nothing, as for a missing field
    where = f"jsonpath {text!r}: '{operation.op_symbol}'"
    both = isinstance(operation.left, JSONPath) and isinstance(operation.right, JSONPath)
    if both and len(left) != len(right):
        raise EvalError(f"{where} pairs {len(left)} values with {len(right)}, so what it computes is unsure")
    for value in left + right:
        if not _is_number(value):
            raise EvalError(f"{where} meets {render(value)[:40]}, which is not a number: a query computes with "
                            "numbers only (select the values and compare number(...) in a 'where')")


def _is_number(value: Any) -> bool:
    # as jsonpath-ng tells a number: a bool is none (a query's Decimals are floats here)
    return isinstance(value, (int, float)) and not isinstance(value, bool)
