"""The conditions of the syntax tree: comparisons, text tests, quantifiers, order of
steps, and the logic that joins them (``Condition``).

Part of ``dsl.ast``, which re-exports every name.
"""

from __future__ import annotations

from typing import Union

from referee.dsl.ast_values import RegexLit, Value
from referee.dsl.frozen import frozen
from referee.dsl.span import Span, span_field




@frozen
class Compare:
    """``==  !=  <  <=  >  >=``; no coercion between text and numbers."""

    op: str
    left: Value
    right: Value
    ignore_case: bool = False
    span: Span = span_field()


@frozen
class Between:
    """``x between low and high``, both ends included."""

    subject: Value
    low: Value
    high: Value
    span: Span = span_field()


@frozen
class TextTest:
    """``contains``, ``starts_with``, ``ends_with``, ``matches`` (search),
    ``fully_matches``. ``operand`` is a value, or a RegexLit for the regex ops."""

    op: str
    subject: Value
    operand: "Value | RegexLit"
    ignore_case: bool = False
    span: Span = span_field()


@frozen
class Includes:
    """``x includes {...}``: recursive subset match (objects by key, lists element-wise)."""

    subject: Value
    expected: Value
    span: Span = span_field()


@frozen
class Member:
    """``x in LIST`` (``x not in LIST`` when ``negated``): some item of the list
    equals ``x``, deeply and without coercion (numbers by value)."""

    item: Value
    collection: Value
    ignore_case: bool = False
    negated: bool = False
    span: Span = span_field()


@frozen
class Quantified:
    """``any|all|no|exactly N <selection> [have <condition>]``. ``selection`` is a
    Selection, or any value that holds a list (a let name, ``keys(x)``, a path,
    ``jsonpath(...)``); inside ``have`` the current element is one of its items."""

    quantifier: str  # "any", "all", "no", "exactly"
    count: int | None
    selection: "Value"
    condition: "Condition | None" = None
    span: Span = span_field()


@frozen
class Exists:
    """``exists <selection>``; mainly ``exists file "x"``. Precision ``existence``."""

    target: Value
    span: Span = span_field()


@frozen
class Emptiness:
    """``<value> is empty`` / ``<value> is not empty``. Precision ``existence``."""

    subject: Value
    negated: bool
    span: Span = span_field()


# The operands of ``before``, ``in order``, ``each of`` and ``only`` are selections,
# or values that hold steps of the run: a let name bound to a selection, or
# ``first(calls to "x")``; the compiler refuses any other value.


@frozen
class Before:
    """``<steps> before <steps>``: some element of the first comes earlier than
    some element of the second. ``response`` counts as after every step."""

    first: Value
    second: Value
    span: Span = span_field()


@frozen
class InOrder:
    """``in order [s1, s2, ...]`` (gaps allowed) or ``exactly in order [...]``
    (the calls of the run are exactly these, one each, in this order)."""

    items: tuple[Value, ...]
    exact: bool = False
    span: Span = span_field()


@frozen
class EachDistinct:
    """``each of [s1, s2, ...]``: every selection is matched by a different element,
    found by maximum bipartite matching (never greedy first-fit)."""

    items: tuple[Value, ...]
    span: Span = span_field()


@frozen
class Only:
    """``only [s1, s2, ...]``: every tool call of the run is in one of these
    selections ("only these tools were called")."""

    items: tuple[Value, ...]
    span: Span = span_field()


@frozen
class Semantic:
    """``semantic "..."``: for the LLM grader. Never decided by the engine."""

    text: str
    span: Span = span_field()


@frozen
class Not:
    """``not <condition>``."""

    operand: "Condition"
    span: Span = span_field()


@frozen
class And:
    """``a and b and ...``: passes when every operand passes."""

    operands: tuple["Condition", ...]
    span: Span = span_field()


@frozen
class Or:
    """``a or b or ...``: passes when some operand passes."""

    operands: tuple["Condition", ...]
    span: Span = span_field()


@frozen
class Truthy:
    """A bare value used as a condition (e.g. ``.valid``): passes when it is ``true``."""

    value: Value
    span: Span = span_field()


Condition = Union[
    Compare, Between, TextTest, Includes, Member, Quantified, Exists, Emptiness, Before,
    InOrder, EachDistinct, Only, Semantic, Not, And, Or, Truthy,
]
