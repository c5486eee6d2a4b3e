"""The values of the syntax tree: literals, names, paths, function calls, and the
selections of a run's steps and files (with their filters) that conditions test.

Part of ``dsl.ast``, which re-exports every name; a ``where`` filter holds a condition
(``dsl.ast_conditions``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Union

from referee.dsl.frozen import frozen
from referee.dsl.span import Span, span_field

if TYPE_CHECKING:
    from referee.dsl.ast_conditions import Condition




@frozen
class Literal:
    """A JSON value: str, Decimal/int, bool, None, tuple (array), or ObjectLit."""

    value: "str | Decimal | int | bool | None | tuple | ObjectLit"
    span: Span = span_field()


@frozen
class ObjectLit:
    """A JSON object literal; ``items`` keeps the author's key order."""

    items: tuple[tuple[str, "Value"], ...]
    span: Span = span_field()


@frozen
class ArrayLit:
    """A JSON array literal (``[1, "a"]``)."""

    items: tuple["Value", ...]
    span: Span = span_field()


@frozen
class RegexLit:
    """``/pattern/flags``; flags is a subset of ``imsx`` in canonical order."""

    pattern: str
    flags: str = ""
    span: Span = span_field()


@frozen
class NameRef:
    """A value bound by ``let``."""

    name: str
    span: Span = span_field()


@frozen
class Field:
    """``.name`` or ``["name"]`` (str) or ``[0]`` (int) in a path."""

    key: str | int
    span: Span = span_field()


@frozen
class PathExpr:
    """Field access. ``base`` None means the current element inside ``where``/``have``."""

    base: "Value | None"
    fields: tuple[Field, ...]
    span: Span = span_field()


@frozen
class JsonPathExpr:
    """``jsonpath(base, "$..x")``: the list of matches of a jsonpath-ng query.
    ``query_span`` is the query's string literal: an error in the query is shown there."""

    base: "Value | None"
    query: str
    span: Span = span_field()
    query_span: Span = span_field()


@frozen
class FuncCall:
    """A built-in function (``engine.checks.functions``): count, first, last, number,
    text, lower, upper, trim, collapse, replace, lines, length, keys, header."""

    name: str
    args: tuple["Value", ...]
    span: Span = span_field()


@frozen
class NamePattern:
    """How a tool name is matched: ``exact`` text, ``glob`` or ``regex``."""

    kind: str
    text: str
    flags: str = ""
    span: Span = span_field()


# Sources a selection starts from.
@frozen
class Source:
    """``calls``, ``notes``, ``harness``, ``response``, ``outputs``, ``metrics``,
    ``timing``, ``metadata``, ``file`` (a run's output) or ``input`` (a file the
    eval lists in evals.json); these two have a ``path`` and a ``fmt`` in
    text/json/csv/lines."""

    kind: str
    path: str | None = None
    fmt: str = "text"
    span: Span = span_field()


@frozen
class ToolFilter:
    """``to "name"`` / ``to glob "x*"`` / ``to /re/``."""

    pattern: NamePattern
    span: Span = span_field()


@frozen
class StatusFilter:
    """``with status success``."""

    status: str
    span: Span = span_field()


@frozen
class StepFilter:
    """``at step 3``."""

    step: int
    span: Span = span_field()


@frozen
class WhereFilter:
    """``where <condition>``, evaluated with each element as the current element."""

    condition: "Condition"
    span: Span = span_field()


Filter = Union[ToolFilter, StatusFilter, StepFilter, WhereFilter]


@frozen
class Selection:
    """A source and the filters that narrow it (``calls to "x" with status success``)."""

    source: Source
    filters: tuple[Filter, ...] = ()
    span: Span = span_field()


@frozen
class Filtered:
    """``<list> where <condition>``: the items of any list value (``lines(x)``, a let
    bound to a list, a JSON array) for which the condition holds, ``.`` being the
    item. A selection's own ``where`` is a ``WhereFilter``."""

    base: "Value"
    condition: "Condition"
    span: Span = span_field()


Value = Union[
    Literal, ObjectLit, ArrayLit, NameRef, PathExpr, JsonPathExpr, FuncCall, Selection, Filtered
]
VALUE_TYPES = (Literal, ObjectLit, ArrayLit, NameRef, PathExpr, JsonPathExpr, FuncCall, Selection,
               Filtered)
