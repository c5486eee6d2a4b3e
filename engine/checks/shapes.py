"""``x matches {...}`` and ``x matches [...]``: a value against the shape an author
expects, in one operator.

An object names the keys that must be there, each matched in turn (other keys may
be there too); an array is matched item by item, same length, same order; a regex
leaf is searched in a text (``{"command": /^git push/}``); any other leaf equals
the value, without coercion. So "search was called with the flights ZRH→LIS then
LIS→ZRH" is ``.args matches {"flights": [{"from": "ZRH"}, {"from": "LIS"}]}``
instead of a length and one ``includes`` per item. (``includes`` stays the subset
match where a list's items may stand in any order, among others.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.dsl import ast
from referee.dsl.format import format_value
from referee.dsl.frozen import frozen
from referee.engine.budget import spend
from referee.engine.checks.base import (Context, Expr, Leaf, Polarity, decided, evidence_of, located,
                                        missing_verdict)
from referee.engine.regexes import Pattern
from referee.engine.checks.held_json import against_shape
from referee.engine.checks.keys import key_of
from referee.engine.equality import equal, unread_against
from referee.engine.values import Missing, UnreadJson, plain_top, render, type_name
from referee.engine.verdict import Verdict


@frozen
class Shape:
    """A compiled expected shape: ``kind`` is object (``parts``: key, shape),
    array (``parts``: shapes), regex (``pattern``) or value (``expr``)."""

    kind: str
    parts: tuple = ()
    pattern: Pattern | None = None
    expr: Expr | None = None


class _Absent(Exception):
    """A value the shape reads is missing: the check fails as a missing value does."""

    def __init__(self, missing: Missing):
        self.missing = missing


def mismatch(actual: Any, shape: Shape, ctx: Context, path: str = "") -> str | None:
    """None when ``actual`` has ``shape``; else why not, with the path to the part."""
    spend(1, "matching a value against a shape")
    actual = plain_top(actual)
    where = path or "the value"
    if isinstance(actual, UnreadJson) and shape.kind in ("object", "array"):
        # what it holds cannot be known: never "not an object"
        raise unread_against(actual, "an object's shape" if shape.kind == "object" else "a list's shape")
    if shape.kind in ("object", "array"):
        against_shape(actual, "an object's shape" if shape.kind == "object" else "a list's shape")
    if shape.kind == "object":
        if not isinstance(actual, dict):
            return f"{where} is {type_name(actual)}, not an object"
        for key, part in shape.parts:
            inner = f"{path}.{key}" if path else key
            written = key_of(actual, key)  # equal to it in NFC
            if written is None:
                return f"{inner} is absent"
            reason = mismatch(actual[written], part, ctx, inner)
            if reason:
                return reason
        return None
    if shape.kind == "array":
        return _array(actual, shape, ctx, path)
    if shape.kind == "regex":
        return _regex(actual, shape.pattern, where)
    assert shape.expr is not None  # a "value" shape always has one
    expected = shape.expr.eval(ctx)
    if isinstance(expected, Missing):
        raise _Absent(expected)
    return None if equal(actual, expected.value) else \
        f"{where} is {render(actual)[:80]}, not {render(expected.value)[:80]}"


def _array(actual: Any, shape: Shape, ctx: Context, path: str) -> str | None:
    where = path or "the value"
    if not isinstance(actual, list):
        return f"{where} is {type_name(actual)}, not a list"
    if len(actual) != len(shape.parts):
        return f"{where} has {len(actual)} items, expected {len(shape.parts)}"
    for index, (item, part) in enumerate(zip(actual, shape.parts)):
        reason = mismatch(item, part, ctx, f"{path}[{index}]")
        if reason:
            return reason
    return None


def _regex(actual: Any, pattern: Pattern | None, where: str) -> str | None:
    if pattern is None:  # did not compile; reported
        return f"{where}: the pattern did not compile"
    if not isinstance(actual, str):
        return f"{where} is {type_name(actual)}, not text for {pattern.display}"
    if pattern.search(actual, where) is None:
        return f"{where} is {render(actual)[:80]}, which does not match {pattern.display}"
    return None


@dataclass(eq=False)
class ShapeCheck(Leaf):
    subject: Expr
    shape: Shape
    shown: str  # the shape as written
    polarity: Polarity

    def decide(self, ctx: Context) -> Verdict:
        subject = self.subject.eval(ctx)
        if isinstance(subject, Missing):
            return missing_verdict(subject)
        try:
            reason = mismatch(subject.value, self.shape, ctx)
        except _Absent as absent:
            return missing_verdict(absent.missing)
        ok = reason is None
        fact = located(f"{subject.label} matches {self.shown}" if ok else f"{subject.label}: {reason}",
                       subject.prov)
        return decided(ok, self.polarity.message(ok, fact, f"to match {self.shown}"),
                       evidence_of(subject), observed=subject.value)


def shape_operand(c, node: ast.Value | ast.RegexLit) -> ast.ObjectLit | ast.ArrayLit | None:
    """The object or array written after ``matches`` (directly or by a let name
    bound to one), else None."""
    seen: set[str] = set()
    while isinstance(node, ast.NameRef) and node.name in c.let_nodes and node.name not in seen:
        seen.add(node.name)
        node = c.let_nodes[node.name][1].value
    return node if isinstance(node, (ast.ObjectLit, ast.ArrayLit)) else None


def compile_shape(c, node: ast.Value | ast.RegexLit, scope) -> Shape:
    if isinstance(node, ast.ObjectLit):
        return Shape("object", tuple((key, compile_shape(c, value, scope)) for key, value in node.items))
    if isinstance(node, ast.ArrayLit):
        return Shape("array", tuple(compile_shape(c, item, scope) for item in node.items))
    if isinstance(node, ast.RegexLit):
        return Shape("regex", pattern=c.regex(node))
    return Shape("value", expr=c.value(node, scope))


def compile_shape_check(c, node: ast.TextTest, written: ast.ObjectLit | ast.ArrayLit, scope) -> ShapeCheck:
    if node.op != "matches" or node.ignore_case:
        c.error("bad-operand", "an object or array shape goes after 'matches' alone",
                node.operand.span, f"write `x matches {format_value(written)}`")
    shape = compile_shape(c, written, scope)
    return ShapeCheck(c.value(node.subject, scope), shape, format_value(written), scope.polarity)

