"""The syntax tree of the assertion language.

Frozen dataclasses (``dsl.frozen``), one per construct of ``grammars/referee.lark``. Every node carries
the ``Span`` of its source text so compile errors and evidence can point at it. Spans
are left out of equality (``compare=False``): two trees are equal when they say the
same thing, wherever they were written, which is what round-trip tests compare.

The nodes live in three modules, all re-exported here: ``dsl.span`` (where a node was
written), ``dsl.ast_values`` (values and selections), ``dsl.ast_conditions``
(conditions); this module holds the statements of a rules file.
"""

from __future__ import annotations

from dataclasses import field
from decimal import Decimal
from typing import Any, Union

from referee.dsl.ast_conditions import (And, Before, Between, Compare, Condition, EachDistinct, Emptiness, Exists,
                                        Includes, InOrder, Member, Not, Only, Or, Quantified, Semantic, TextTest,
                                        Truthy)
from referee.dsl.ast_values import (VALUE_TYPES, ArrayLit, Field, Filter, Filtered, FuncCall, JsonPathExpr, Literal,
                                    NamePattern, NameRef, ObjectLit, PathExpr, RegexLit, Selection, Source,
                                    StatusFilter, StepFilter, ToolFilter, Value, WhereFilter)
from referee.dsl.frozen import frozen
from referee.dsl.span import NO_SPAN, Span, span_field




@frozen
class Let:
    """``let name = ...``: a name for a value, a pattern (a ``RegexLit``, used after
    ``matches``) or a condition (used as a condition, where its ``.`` is the element
    at the place of use), once per eval."""

    name: str
    value: "Value | RegexLit | Condition"
    span: Span = span_field()

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
    span: Span = span_field()


@frozen
class EvalBlock:
    """``eval <id> ["name"]`` followed by its lets and expects. ``key`` is the id as
    written (a number as text, or the name string)."""

    key: str
    name: str | None
    lets: tuple[Let, ...]
    expects: tuple[Expect, ...]
    span: Span = span_field()


@frozen
class RulesFile:
    """A parsed rules file: its eval blocks in file order."""

    path: str
    evals: tuple[EvalBlock, ...]
    span: Span = span_field()


__all__ = [n for n in dir() if n[:1].isupper()] + ["Decimal"]
