"""Compiled value expressions: literals, let names, field paths, functions, jsonpath.

Each expression has ``eval(ctx) -> Val | Missing`` and a static ``kind`` the
compiler uses to reject impossible steps early (``.arg`` on a tool call).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from referee.dsl import ast
from referee.dsl.errors import did_you_mean
from referee.engine.checks.access import CALL_FIELDS, NOTE_FIELDS, elements, get
from referee.engine.checks.base import Context, Expr, ExprCompiler, present
from referee.dsl.format import format_value
from referee.dsl.syntax import SOURCES as SOURCE_WORDS  # the words a selection starts with
from referee.engine.checks.functions import ARITY, FUNCTIONS
from referee.engine.checks.jsonpath_arithmetic import check_arithmetic
from referee.engine.checks.jsonpath_numbers import for_query, given_back
from referee.engine.checks.jsonpath_orders import find_sure
from referee.engine.checks.jsonpath_unread import watch_unread
from referee.engine.checks.static import reads_element
from referee.engine.values import EvalError, Missing, Prov, Result, Val, is_number, plain, render, type_name

# The element of a list of a known kind ("texts" and "numbers": lists of texts, of numbers).
ELEMENT_OF = {"calls": "call", "notes": "note", "rows": "row", "lines": "text", "texts": "text",
              "numbers": "number"}
# What a function gives, where it always gives one kind (the compiler's ``kind``).
RESULT_KINDS = {"count": "number", "length": "number", "number": "number", "lines": "lines",
                "text": "text", "lower": "text", "upper": "text", "trim": "text",
                "collapse": "text", "replace": "text", "keys": "list", "section": "text",
                "headings": "texts", "parts": "texts", "quotes": "texts", "code": "texts",
                "words": "texts", "numbers": "numbers"}
FIELDS_OF = {"call": CALL_FIELDS, "note": NOTE_FIELDS}


@dataclass(frozen=True)
class Const:
    val: Val
    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        return self.val


@dataclass(frozen=True)
class LetRef:
    name: str
    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        return ctx.let(self.name)


@dataclass(frozen=True)
class Current:
    """The element ``where``/``have`` is looking at (``.args`` is relative to it)."""

    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        return ctx.current if ctx.current is not None else Missing("no current element")


@dataclass(frozen=True)
class PathGet:
    base: Expr
    keys: tuple[str | int, ...]
    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        if isinstance(self.base, LetRef):
            return let_path(ctx, self.base.name, self.keys)
        return follow(self.base.eval(ctx), self.keys)


def follow(result: Result, keys: tuple[str | int, ...]) -> Result:
    """``result`` down the path ``keys``; the first Missing on the way stops it."""
    for key in keys:
        if isinstance(result, Missing):
            return result
        result = get(result, key)
    return result


def let_path(ctx: Context, name: str, keys: tuple[str | int, ...]) -> Result:
    """``name.k1.k2...``, computed once per run for each path: a let's value is the
    run's alone, so ``saved.args.amount`` and ``saved.args.region`` share the reading
    of ``saved.args`` (and each field is located in the payload text once). An
    EvalError is not kept (``Context.once``): every assertion meets it."""
    if not keys:
        return ctx.let(name)
    return ctx.once(("let path", name, keys), lambda: follow(let_path(ctx, name, keys[:-1]), keys[-1:]))


@dataclass(frozen=True)
class ListExpr:
    """An array literal with computed items; a missing item makes it missing."""

    items: tuple[Expr, ...]
    kind: str = "list"

    def eval(self, ctx: Context) -> Result:
        vals = present([item.eval(ctx) for item in self.items])
        if isinstance(vals, Missing):
            return vals
        return Val([v.value for v in vals], None, tuple(vals))


@dataclass(frozen=True)
class ObjectExpr:
    items: tuple[tuple[str, Expr], ...]
    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        out = {}
        for key, expr in self.items:
            val = expr.eval(ctx)
            if isinstance(val, Missing):
                return val
            out[key] = val.value
        return Val(out)


@dataclass(frozen=True, eq=False)
class FuncExpr:
    """A built-in function applied to its arguments; a missing argument makes the
    result missing (the first one's reason). Inside ``where``/``have``, a call that
    does not read the current element (``numbers(input "x")``) is made once per run,
    not once per element (``once``)."""

    fn: Callable[..., Result]
    args: tuple[Expr, ...]
    kind: str = "any"
    once: bool = False

    @property
    def arg(self) -> Expr:
        """The first argument (the only one of every function but ``replace``)."""
        return self.args[0]

    def eval(self, ctx: Context) -> Result:
        if self.once:
            return ctx.once(self, lambda: self._apply(ctx))
        return self._apply(ctx)

    def _apply(self, ctx: Context) -> Result:
        vals = []
        for arg in self.args:
            val = arg.eval(ctx)
            if isinstance(val, Missing):
                return val
            vals.append(val)
        return self.fn(*vals)


@dataclass(frozen=True)
class JsonPathGet:
    """``jsonpath(base, "$..x")``: the list of matches, each with its path as label."""

    base: Expr
    query: Any  # a parsed jsonpath-ng expression
    text: str
    kind: str = "list"

    def eval(self, ctx: Context) -> Result:
        base = self.base.eval(ctx)
        if isinstance(base, Missing):
            return base
        check_arithmetic(self.query, self.text)
        watch_unread(self.query, self.text)
        found = _found(self.query, for_query(plain(base.value)), self.text)
        prov = base.prov
        items = tuple(Val(given_back(m.value), _match_prov(base, m.full_path)) for m in found)
        label = f"jsonpath({base.label}, {self.text!r})"
        own = Prov(prov.source, label, prov.file, prov.line, prov.step) if prov else None
        return Val([i.value for i in items], own, items)


def _found(query: Any, data: Any, text: str) -> list:
    """What ``query`` selects in ``data``. jsonpath-ng sorts (``$[/price]``) and runs its
    functions (``sub``, ``split``) with Python's operations, which raise a TypeError on
    values they cannot take (text beside a number, a null): an ERROR naming the query."""
    try:
        return find_sure(query, data, text)
    except TypeError as exc:
        raise EvalError(f"jsonpath {text!r} cannot be computed on the values it met ({exc}): a sort orders "
                        "numbers or texts, a function takes text") from None


@dataclass(frozen=True, eq=False)
class ListValue:
    """A list value quantified over (``all keys(x) have ...``, a let bound to a
    selection): the part of a selection's interface the quantifiers use.

    A missing value selects nothing and says why (so ``all`` holds vacuously and
    ``any`` fails with the reason); a value that is not a list is an ERROR."""

    expr: Expr
    desc: str
    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        return self.expr.eval(ctx)

    def items(self, ctx: Context) -> tuple[Val, ...]:
        val = self.expr.eval(ctx)
        if isinstance(val, Missing):
            return ()
        if type_name(val.value) != "list":
            raise EvalError(f"a quantifier needs a list; {val.label} is {type_name(val.value)} "
                            f"{render(val.value)[:60]}")
        return elements(val)

    def claims(self, ctx: Context):
        return self.expr.eval(ctx).claims

    def why_empty(self, ctx: Context) -> str:
        val = self.expr.eval(ctx)
        if isinstance(val, Missing):
            return val.reason
        return val.empty or f"{val.label} is empty"

    def examined(self, ctx: Context) -> bool:
        """Whether a ``where`` looked at some item (see ``Select.examined``)."""
        examined = getattr(self.expr, "examined", None)
        return examined is not None and examined(ctx)


def _match_prov(base: Val, path: Any) -> Prov | None:
    """Where a match at ``path`` (jsonpath-ng's) in ``base`` is written: ``path``
    followed from ``base`` as a field path is (``get``), so a match is cited at its
    own line and its call's step; a value a function or a sort computed, at the
    deepest value its path names."""
    located = base
    for key in _path_keys(path):
        found = get(located, key)
        if isinstance(found, Missing) or found.prov is None:
            break
        located = found
    prov = located.prov
    if prov is None:
        return None
    label = f"{base.prov.label} {path}" if base.prov is not None else prov.label
    return Prov(prov.source, label, prov.file, prov.line, prov.step)


def _path_keys(path: Any) -> list[str | int]:
    """The fields and items ``path`` names from the query's root, up to the first part
    that names neither (``$`` and ``@`` name nothing)."""
    from jsonpath_ng import Child, Fields, Index, Root, This  # loaded already: ``path`` is one

    keys: list[str | int] = []
    parts = [path]
    while parts:
        part = parts.pop()
        if isinstance(part, Child):
            parts += [part.right, part.left]
        elif isinstance(part, Fields) and len(part.fields) == 1:
            keys.append(part.fields[0])
        elif isinstance(part, Index) and len(part.indices) == 1:
            keys.append(part.indices[0])
        elif not isinstance(part, (Root, This)):
            break
    return keys


# ----------------------------------------------------------------------- compilers


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
        base = Current(scope.element or "any")
    else:
        base = c.value(node.base, scope)
    kind = base.kind
    for step in node.fields:
        _check_step(c, kind, step, node)
        kind = ELEMENT_OF.get(kind, "any") if isinstance(step.key, int) else "any"
    return PathGet(base, tuple(f.key for f in node.fields), kind)


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
    query = c.jsonpath(node.query, node.span)
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
