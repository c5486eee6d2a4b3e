"""From AST value nodes to compiled expressions (``engine.checks.exprs``), with every
static check a value allows: a step no value of its kind has (``.arg`` on a tool
call, a field of text), a function's arity, a query over a value that is always
text, a quantifier over something that is no list. Each is an error at compile
time, with a "did you mean" where one fits, never a verdict at run time.
"""

from __future__ import annotations

from typing import Any

from referee.dsl import ast
from referee.dsl.errors import did_you_mean
from referee.dsl.format import format_value
from referee.dsl.syntax import SOURCES as SOURCE_WORDS  # the words a selection starts with
from referee.engine.checks.base import ExprCompiler
from referee.engine.checks.exprs import (ELEMENT_OF, FIELDS_OF, RESULT_KINDS, Const, Current, FuncExpr, JsonPathGet,
                                         ListExpr, ListValue, ObjectExpr, PathGet)
from referee.engine.checks.functions import ARITY, FUNCTIONS
from referee.engine.checks.sources import Select, compile_selection
from referee.engine.checks.static import reads_element
from referee.engine.values import Val, is_number


def compile_literal(c, node: ast.Literal, scope) -> Const:
    value = _literal_value(c, node.value, scope)
    kind = "text" if isinstance(value, str) else "list" if isinstance(value, list) else \
        "number" if is_number(value) else "any"
    return Const(Val(value), kind)


def _literal_value(c, value: Any, scope) -> Any:
    if isinstance(value, tuple):
        return [_literal_value(c, v, scope) for v in value]
    if isinstance(value, (ast.ObjectLit, ast.ArrayLit, ast.Literal)):
        expr = c.value(value, scope)
        return expr.val.value if isinstance(expr, Const) else None
    return value


def compile_array(c, node: ast.ArrayLit, scope):
    items = tuple(c.value(item, scope) for item in node.items)
    if all(isinstance(i, Const) for i in items):
        return Const(Val([i.val.value for i in items]), "list")
    return ListExpr(items)


def compile_object(c, node: ast.ObjectLit, scope):
    items = tuple((key, c.value(value, scope)) for key, value in node.items)
    if all(isinstance(e, Const) for _, e in items):
        return Const(Val({key: e.val.value for key, e in items}))
    return ObjectExpr(items)


def compile_name(c, node: ast.NameRef, scope):
    return c.let(node.name, node.span)


def compile_path(c, node: ast.PathExpr, scope):
    if node.base is None:
        if scope.element is None and c.ended is not None:
            clause, word, fix = c.ended
            c.error("bad-path", f"the '{clause}' condition ended at '{word}', so "
                    f"'{format_value(node)}' has no current element",
                    node.span, f"parenthesise the whole condition: {fix}")
        elif scope.element is None:
            c.error("bad-path", "a path starting with '.' needs a current element: "
                    "use it inside 'where' or 'have'", node.span)
        base: Current | Select = Current(scope.element or "any")
    elif isinstance(node.base, ast.Selection) and _metrics(node.base):  # an ERROR of it depends on the count read
        base = compile_selection(c, node.base, scope, tuple(f.key for f in node.fields))
    else:
        base = c.value(node.base, scope)
    kind = base.kind
    for step in node.fields:
        _check_step(c, kind, step, node)
        kind = ELEMENT_OF.get(kind, "any") if isinstance(step.key, int) else "any"
    return PathGet(base, tuple(f.key for f in node.fields), kind)


def _metrics(node: ast.Selection) -> bool:
    """Whether ``node`` is ``metrics`` itself (no filter)."""
    return node.source.kind == "metrics" and not node.filters


def _check_step(c, kind: str, step: ast.Field, node: ast.PathExpr) -> None:
    """Reject steps that can never succeed, whatever the run holds."""
    span = step.span if step.span.line else node.span
    if kind in ("text", "number") and node.base is not None:
        base = format_value(node.base)
        hint = f"did you mean {step.key}({base})?" if step.key in ARITY else \
            "read a JSON file with file \"x\" as json" if kind == "text" else None
        c.error("bad-path", f"'{base}' is {kind}: it has no field '{step.key}', so this never "
                "holds", span, hint)
        return
    if kind in ELEMENT_OF and isinstance(step.key, str):
        c.error("bad-path", f"'{format_value(node.base)}' is a list; '.{step.key}' needs one element: "
                f"use first(...), last(...) or 'any ... have'", span)
    fields = FIELDS_OF.get(kind)
    if fields and step.key not in fields:
        what = "a tool call" if kind == "call" else "a note"
        c.error("unknown-field", f"{what} has no field '{step.key}' (fields: {', '.join(fields)})",
                span, did_you_mean(str(step.key), fields))


def compile_func(c, node: ast.FuncCall, scope):
    if node.name == "jsonpath":  # a well-formed jsonpath(...) is a JsonPathExpr node
        c.error("wrong-arity", "jsonpath() takes a query string, or a value and a query "
                f"string; got {len(node.args)} arguments", node.span)
        return Const(Val(None))
    if node.name not in ARITY:
        c.error("unknown-function", f"unknown function '{node.name}'", node.span,
                did_you_mean(node.name, [*ARITY, "jsonpath"]))
        return Const(Val(None))
    arity = ARITY[node.name]
    if len(node.args) != arity:
        c.error("wrong-arity", f"{node.name}() takes {arity} argument{'s' if arity > 1 else ''}, "
                f"got {len(node.args)}", node.span)
        return Const(Val(None))
    if node.name == "header":
        return c.header(node, scope)
    args = tuple(c.value(arg, scope) for arg in node.args)
    kind = ELEMENT_OF.get(args[0].kind, "any") if node.name in ("first", "last") else \
        RESULT_KINDS.get(node.name, "any")
    return FuncExpr(FUNCTIONS[node.name], args, kind, scope.element is not None and not reads_element(node))


def compile_jsonpath(c, node: ast.JsonPathExpr, scope):
    if node.base is None and scope.element is None:
        c.error("bad-path", "jsonpath with one argument applies to the current element: "
                "use it inside 'where' or 'have', or pass a value first", node.span)
    base = Current() if node.base is None else c.value(node.base, scope)
    if base.kind in ("text", "number"):
        _query_never_selects(c, node, base.kind)
    query = c.jsonpath(node.query, node.span if node.query_span == ast.NO_SPAN else node.query_span)
    return JsonPathGet(base, query, node.query)


def _query_never_selects(c, node: ast.JsonPathExpr, kind: str) -> None:
    """Refuse a query over a value that is always text (or a number), as a field of it
    is refused (``_check_step``): it selects nothing in it, so 'no jsonpath(response,
    "$.x")' would pass on a response holding that JSON, never read as JSON."""
    base = format_value(node.base)
    hint = 'read a JSON file with file "x" as json' if kind == "text" else None
    c.error("bad-path", f"'{base}' is {kind}: jsonpath finds no field in it, so the query never selects one",
            node.span, hint)


def compile_list(c, node, scope):
    """What a quantifier ranges over: a selection, or any value holding a list."""
    if isinstance(node, ast.Selection):
        return c.selection(node, scope)
    if isinstance(node, ast.NameRef) and node.name not in c.let_nodes:
        # `all respons have ...`: a misspelt source, more likely than a let.
        c.error("unknown-source", f"'{node.name}' is not a selection nor a let name", node.span,
                did_you_mean(node.name, [*SOURCE_WORDS, *c.let_nodes])
                or "a selection starts with " + ", ".join(SOURCE_WORDS))
        return ListValue(Const(Val([])), node.name)
    expr = c.value(node, scope)
    if expr.kind == "text" or isinstance(node, (ast.Literal, ast.ObjectLit)):
        c.error("bad-operand", f"a quantifier ranges over a list; {format_value(node)} is not one",
                node.span, "quantify over a selection or a list value, e.g. `all keys(x) have ...`")
    return ListValue(expr, format_value(node), expr.kind)


def compile_regex_value(c, node: ast.RegexLit, scope):
    c.error("bad-operand", f"a regex is a pattern for 'matches'; {format_value(node)} cannot stand "
            "for a value here", node.span, "write `x matches /.../`, or `contains` for plain text")
    return Const(Val(None))


VALUE_COMPILERS: dict[type, ExprCompiler] = {
    ast.RegexLit: compile_regex_value,
    ast.Literal: compile_literal,
    ast.ArrayLit: compile_array,
    ast.ObjectLit: compile_object,
    ast.NameRef: compile_name,
    ast.PathExpr: compile_path,
    ast.FuncCall: compile_func,
    ast.JsonPathExpr: compile_jsonpath,
}
