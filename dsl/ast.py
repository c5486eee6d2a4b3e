"""The syntax tree of the assertion language.

Frozen dataclasses (``dsl.frozen``), one per construct of ``grammars/referee.lark``. Every node carries
the ``Span`` of its source text so compile errors and evidence can point at it. Spans
are left out of equality (``compare=False``): two trees are equal when they say the
same thing, wherever they were written, which is what round-trip tests compare.
"""

from __future__ import annotations

from dataclasses import field
from decimal import Decimal
from typing import Any, Union

from referee.dsl.frozen import frozen


@frozen
class Span:
    """1-based line and column of the first character; end is exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int
    start_pos: int = 0
    end_pos: int = 0

    def head(self, width: int) -> "Span":
        """The first ``width`` characters: where a statement's keyword stands, so a
        caret marks ``expect`` rather than the whole statement."""
        return Span(self.line, self.column, self.line, self.column + width,
                    self.start_pos, self.start_pos + width)

    def caret_end(self) -> int:
        """The exclusive end column of a diagnostic's caret under this span, which
        is drawn on the first line only: the span's end when it stays on that
        line, else one character. The one place this is decided."""
        return self.end_column if self.end_line == self.line else self.column + 1


NO_SPAN = Span(0, 0, 0, 0)


def _span() -> Any:
    return field(default=NO_SPAN, compare=False, repr=False)


# ----------------------------------------------------------------------------- values


@frozen
class Literal:
    """A JSON value: str, Decimal/int, bool, None, tuple (array), or ObjectLit."""

    value: "str | Decimal | int | bool | None | tuple | ObjectLit"
    span: Span = _span()


@frozen
class ObjectLit:
    """A JSON object literal; ``items`` keeps the author's key order."""

    items: tuple[tuple[str, "Value"], ...]
    span: Span = _span()


@frozen
class ArrayLit:
    """A JSON array literal (``[1, "a"]``)."""

    items: tuple["Value", ...]
    span: Span = _span()


@frozen
class RegexLit:
    """``/pattern/flags``; flags is a subset of ``imsx`` in canonical order."""

    pattern: str
    flags: str = ""
    span: Span = _span()


@frozen
class NameRef:
    """A value bound by ``let``."""

    name: str
    span: Span = _span()


@frozen
class Field:
    """``.name`` or ``["name"]`` (str) or ``[0]`` (int) in a path."""

    key: str | int
    span: Span = _span()


@frozen
class PathExpr:
    """Field access. ``base`` None means the current element inside ``where``/``have``."""

    base: "Value | None"
    fields: tuple[Field, ...]
    span: Span = _span()


@frozen
class JsonPathExpr:
    """``jsonpath(base, "$..x")``: the list of matches of a jsonpath-ng query.
    ``query_span`` is the query's string literal: an error in the query is shown there."""

    base: "Value | None"
    query: str
    span: Span = _span()
    query_span: Span = _span()


@frozen
class FuncCall:
    """A built-in function (``engine.checks.functions``): count, first, last, number,
    text, lower, upper, trim, collapse, replace, lines, length, keys, header."""

    name: str
    args: tuple["Value", ...]
    span: Span = _span()


@frozen
class NamePattern:
    """How a tool name is matched: ``exact`` text, ``glob`` or ``regex``."""

    kind: str
    text: str
    flags: str = ""
    span: Span = _span()


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
    span: Span = _span()


@frozen
class ToolFilter:
    """``to "name"`` / ``to glob "x*"`` / ``to /re/``."""

    pattern: NamePattern
    span: Span = _span()


@frozen
class StatusFilter:
    """``with status success``."""

    status: str
    span: Span = _span()


@frozen
class StepFilter:
    """``at step 3``."""

    step: int
    span: Span = _span()


@frozen
class WhereFilter:
    """``where <condition>``, evaluated with each element as the current element."""

    condition: "Condition"
    span: Span = _span()


Filter = Union[ToolFilter, StatusFilter, StepFilter, WhereFilter]


@frozen
class Selection:
    """A source and the filters that narrow it (``calls to "x" with status success``)."""

    source: Source
    filters: tuple[Filter, ...] = ()
    span: Span = _span()


@frozen
class Filtered:
    """``<list> where <condition>``: the items of any list value (``lines(x)``, a let
    bound to a list, a JSON array) for which the condition holds, ``.`` being the
    item. A selection's own ``where`` is a ``WhereFilter``."""

    base: "Value"
    condition: "Condition"
    span: Span = _span()


Value = Union[
    Literal, ObjectLit, ArrayLit, NameRef, PathExpr, JsonPathExpr, FuncCall, Selection, Filtered
]
VALUE_TYPES = (Literal, ObjectLit, ArrayLit, NameRef, PathExpr, JsonPathExpr, FuncCall, Selection,
               Filtered)

# ------------------------------------------------------------------------ conditions


@frozen
class Compare:
    """``==  !=  <  <=  >  >=``; no coercion between text and numbers."""

    op: str
    left: Value
    right: Value
    ignore_case: bool = False
    span: Span = _span()


@frozen
class Between:
    """``x between low and high``, both ends included."""

    subject: Value
    low: Value
    high: Value
    span: Span = _span()


@frozen
class TextTest:
    """``contains``, ``starts_with``, ``ends_with``, ``matches`` (search),
    ``fully_matches``. ``operand`` is a value, or a RegexLit for the regex ops."""

    op: str
    subject: Value
    operand: "Value | RegexLit"
    ignore_case: bool = False
    span: Span = _span()


@frozen
class Includes:
    """``x includes {...}``: recursive subset match (objects by key, lists element-wise)."""

    subject: Value
    expected: Value
    span: Span = _span()


@frozen
class Member:
    """``x in LIST`` (``x not in LIST`` when ``negated``): some item of the list
    equals ``x``, deeply and without coercion (numbers by value)."""

    item: Value
    collection: Value
    ignore_case: bool = False
    negated: bool = False
    span: Span = _span()


@frozen
class Quantified:
    """``any|all|no|exactly N <selection> [have <condition>]``. ``selection`` is a
    Selection, or any value that holds a list (a let name, ``keys(x)``, a path,
    ``jsonpath(...)``); inside ``have`` the current element is one of its items."""

    quantifier: str  # "any", "all", "no", "exactly"
    count: int | None
    selection: "Value"
    condition: "Condition | None" = None
    span: Span = _span()


@frozen
class Exists:
    """``exists <selection>``; mainly ``exists file "x"``. Precision ``existence``."""

    target: Value
    span: Span = _span()


@frozen
class Emptiness:
    """``<value> is empty`` / ``<value> is not empty``. Precision ``existence``."""

    subject: Value
    negated: bool
    span: Span = _span()


# The operands of ``before``, ``in order``, ``each of`` and ``only`` are selections,
# or values that hold steps of the run: a let name bound to a selection, or
# ``first(calls to "x")``; the compiler refuses any other value.


@frozen
class Before:
    """``<steps> before <steps>``: some element of the first comes earlier than
    some element of the second. ``response`` counts as after every step."""

    first: Value
    second: Value
    span: Span = _span()


@frozen
class InOrder:
    """``in order [s1, s2, ...]`` (gaps allowed) or ``exactly in order [...]``
    (the calls of the run are exactly these, one each, in this order)."""

    items: tuple[Value, ...]
    exact: bool = False
    span: Span = _span()


@frozen
class EachDistinct:
    """``each of [s1, s2, ...]``: every selection is matched by a different element,
    found by maximum bipartite matching (never greedy first-fit)."""

    items: tuple[Value, ...]
    span: Span = _span()


@frozen
class Only:
    """``only [s1, s2, ...]``: every tool call of the run is in one of these
    selections ("only these tools were called")."""

    items: tuple[Value, ...]
    span: Span = _span()


@frozen
class Semantic:
    """``semantic "..."``: for the LLM grader. Never decided by the engine."""

    text: str
    span: Span = _span()


@frozen
class Not:
    """``not <condition>``."""

    operand: "Condition"
    span: Span = _span()


@frozen
class And:
    """``a and b and ...``: passes when every operand passes."""

    operands: tuple["Condition", ...]
    span: Span = _span()


@frozen
class Or:
    """``a or b or ...``: passes when some operand passes."""

    operands: tuple["Condition", ...]
    span: Span = _span()


@frozen
class Truthy:
    """A bare value used as a condition (e.g. ``.valid``): passes when it is ``true``."""

    value: Value
    span: Span = _span()


Condition = Union[
    Compare, Between, TextTest, Includes, Member, Quantified, Exists, Emptiness, Before,
    InOrder, EachDistinct, Only, Semantic, Not, And, Or, Truthy,
]

# ---------------------------------------------------------------------- rules files


@frozen
class Let:
    """``let name = ...``: a name for a value, a pattern (a ``RegexLit``, used after
    ``matches``) or a condition (used as a condition, where its ``.`` is the element
    at the place of use), once per eval."""

    name: str
    value: "Value | RegexLit | Condition"
    span: Span = _span()

    @property
    def names(self) -> str:
        """What the let names: ``value``, ``pattern`` or ``condition``."""
        if isinstance(self.value, RegexLit):
            return "pattern"
        return "value" if isinstance(self.value, VALUE_TYPES) else "condition"


@frozen
class Expect:
    """One assertion. ``index`` links it to evals.json's expectation (1-based);
    ``sentence`` is the human text; ``check`` None means a plain semantic sentence.
    ``source`` is the check's own text as written (becomes grading.json ``check``)."""

    index: int | None
    sentence: str | None
    check: Condition | None
    source: str = field(default="", compare=False)
    span: Span = _span()


@frozen
class EvalBlock:
    """``eval <id> ["name"]`` followed by its lets and expects. ``key`` is the id as
    written (a number as text, or the name string)."""

    key: str
    name: str | None
    lets: tuple[Let, ...]
    expects: tuple[Expect, ...]
    span: Span = _span()


@frozen
class RulesFile:
    """A parsed rules file: its eval blocks in file order."""

    path: str
    evals: tuple[EvalBlock, ...]
    span: Span = _span()


__all__ = [n for n in dir() if n[:1].isupper()] + ["Decimal"]
