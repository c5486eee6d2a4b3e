"""Compiled value expressions: literals, let names, field paths, functions, jsonpath.

Each expression has ``eval(ctx) -> Val | Missing`` and a static ``kind`` the
compiler uses to reject impossible steps early (``.arg`` on a tool call;
``engine.checks.expr_compilers`` builds them from the AST).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from referee.dsl.frozen import frozen
from referee.engine.checks.access import CALL_FIELDS, NOTE_FIELDS, elements, get
from referee.engine.checks.base import Context, Expr, present
from referee.engine.checks.jsonpath_arithmetic import check_arithmetic
from referee.engine.checks.jsonpath_numbers import for_query, given_back
from referee.engine.checks.jsonpath_orders import find_sure
from referee.engine.checks.jsonpath_keys import find_keys_in_nfc
from referee.engine.checks.jsonpath_texts import compare_in_text_form, one_run
from referee.engine.checks.jsonpath_unread import watch_unread
from referee.engine.values import EvalError, Missing, Prov, Result, Val, plain, render, type_name

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


@frozen
class Const:
    val: Val
    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        return self.val


@frozen
class LetRef:
    name: str
    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        return ctx.let(self.name)


@frozen
class Current:
    """The element ``where``/``have`` is looking at (``.args`` is relative to it)."""

    kind: str = "any"

    def eval(self, ctx: Context) -> Result:
        return ctx.current if ctx.current is not None else Missing("no current element")


@frozen
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


@frozen
class ListExpr:
    """An array literal with computed items; a missing item makes it missing."""

    items: tuple[Expr, ...]
    kind: str = "list"

    def eval(self, ctx: Context) -> Result:
        vals = present([item.eval(ctx) for item in self.items])
        if isinstance(vals, Missing):
            return vals
        return Val([v.value for v in vals], None, tuple(vals))


@frozen
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


@frozen
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
        compare_in_text_form(self.query)
        find_keys_in_nfc(self.query)
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
        with one_run():
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
