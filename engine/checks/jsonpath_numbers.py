"""The numbers of a run as jsonpath-ng's filters compare them.

referee reads a JSON fraction as an exact ``Decimal`` (``engine.run.safejson``), and
jsonpath-ng orders ints and floats only (RFC 9535: two numbers or two texts): to it
a Decimal is no number, so ``[?(@.price > 100)]`` never kept a price of 150.5, and
``[?(@.price == 0.1)]`` (a float beside an exact Decimal) never kept 0.1. A query
is run on a copy of its data whose Decimals are ``Fraction`` floats, as the filter's
own literals are; each value it selects is given back with its exact numbers.
"""

from __future__ import annotations

import operator
from decimal import Decimal
from typing import Any, Callable


class Fraction(float):
    """A Decimal as the float nearest to it, for a filter to compare with its own
    float literals (rounding keeps the order of two numbers, so only numbers within
    a float's 17 digits of each other can compare equal when they differ); the
    Decimal itself is kept, to be given back."""

    exact: Decimal

    def __new__(cls, exact: Decimal) -> "Fraction":
        number = super().__new__(cls, exact)
        number.exact = exact
        return number

    # The query's arithmetic ($.a * 3, $.a + $.b) stays exact, as on the Decimals.
    def __add__(self, other: Any) -> Any:
        return _exactly(operator.add, self, other)

    def __radd__(self, other: Any) -> Any:
        return _exactly(operator.add, other, self)

    def __sub__(self, other: Any) -> Any:
        return _exactly(operator.sub, self, other)

    def __rsub__(self, other: Any) -> Any:
        return _exactly(operator.sub, other, self)

    def __mul__(self, other: Any) -> Any:
        return _exactly(operator.mul, self, other)

    def __rmul__(self, other: Any) -> Any:
        return _exactly(operator.mul, other, self)

    def __truediv__(self, other: Any) -> Any:
        return _exactly(operator.truediv, self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _exactly(operator.truediv, other, self)


def _exactly(op: Callable[[Decimal, Decimal], Decimal], left: Any, right: Any) -> Any:
    a, b = _decimal(left), _decimal(right)
    if a is None or b is None:
        return NotImplemented  # text, a list, ...: a TypeError, as for a Decimal
    return Fraction(op(a, b))


def _decimal(number: Any) -> Decimal | None:
    """A number an operation meets, exact: a float is one of the query's literals,
    whose shortest form is the literal as written."""
    if isinstance(number, Fraction):
        return number.exact
    if isinstance(number, Decimal) or (isinstance(number, int) and not isinstance(number, bool)):
        return Decimal(number)
    if isinstance(number, float):
        return Decimal(repr(number))
    return None


def for_query(value: Any) -> Any:
    """``value`` (plain JSON-like data) with each Decimal in it a ``Fraction``."""
    if isinstance(value, Decimal):
        return Fraction(value)
    if isinstance(value, dict):
        return {key: for_query(item) for key, item in value.items()}
    if isinstance(value, list):
        return [for_query(item) for item in value]
    return value


def given_back(value: Any) -> Any:
    """A value a query selected, with each ``Fraction`` in it its exact Decimal again."""
    if isinstance(value, Fraction):
        return value.exact
    if isinstance(value, dict):
        return {key: given_back(item) for key, item in value.items()}
    if isinstance(value, list):
        return [given_back(item) for item in value]
    return value
