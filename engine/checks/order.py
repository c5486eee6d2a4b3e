"""Order and pairing of steps: ``before``, ``in order``, ``exactly in order``, ``each of``,
and ``only`` (the run's calls are among these).

Elements are ordered by their transcript index (calls and notes share one
sequence); the response comes after every step. ``each of`` pairs items with
distinct elements by maximum matching, so the expected list's order never
changes the verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee.dsl import ast
from referee.dsl.format import format_value
from referee.engine.text import count
from referee.engine.checks.access import elements
from referee.engine.checks.base import (DETAIL_LIMIT, CheckCompiler, Context, Expr, Leaf, decided,
                                        evidence_of, located, with_claims)
from referee.engine.checks.matching import pair_up
from referee.engine.checks.run_sources import read_calls, records
from referee.engine.checks.sources import Select
from referee.engine.run.model import Note, ToolCall
from referee.engine.values import EvalError, Missing, Val, render, type_name
from referee.engine.verdict import Outcome, Verdict

ORDERED_SOURCES = ("calls", "notes", "harness", "response")


def position(item: Val) -> float:
    """Where an element sits in the run: its transcript index; the response last.

    Only a record (call or note) has a place in the transcript. The record type
    decides, never an ``index`` attribute: text, lists and tuples have an
    ``index`` *method*, and the response text would then compare a number with
    a function (a TypeError instead of "comes after everything").
    """
    value = item.value
    if isinstance(value, (ToolCall, Note)):
        return value.index
    return math.inf


def _key(item: Val) -> tuple:
    if isinstance(item.value, (ToolCall, Note)):
        return ("index", item.value.index)
    prov = item.prov
    return ("place", prov.file if prov else None, prov.line if prov else None, repr(item.value))


def _none_found(ctx: Context, sel: "Select | Steps") -> Verdict:
    claims = sel.claims(ctx)
    return Verdict(Outcome.FAIL, with_claims(sel.why_empty(ctx), claims), vacuous=True,
                   details=tuple(c.message for c in claims))


@dataclass
class BeforeCheck(Leaf):
    first: Select | Steps
    second: Select | Steps

    def decide(self, ctx: Context) -> Verdict:
        firsts, seconds = self.first.items(ctx), self.second.items(ctx)
        for sel, items in ((self.first, firsts), (self.second, seconds)):
            if not items:
                return _none_found(ctx, sel)
        early = min(firsts, key=position)
        late = max(seconds, key=position)
        ok = position(early) < position(late)
        a, b = located(early.label, early.prov), located(late.label, late.prov)
        message = f"{a} comes before {b}" if ok else f"{a} is not before {b}"
        return decided(ok, message, evidence_of(early, late))


@dataclass
class InOrderCheck(Leaf):
    items: tuple[Select | Steps, ...]
    exact: bool

    def decide(self, ctx: Context) -> Verdict:
        calls = list(records(ctx, read_calls))
        wanted = [{position(v) for v in sel.items(ctx)} for sel in self.items]
        return self._exact(calls, wanted) if self.exact else self._subsequence(calls, wanted)

    def _subsequence(self, calls: list[Val], wanted: list[set]) -> Verdict:
        # Taking the earliest fitting call for each item is optimal for a subsequence.
        chosen: list[Val] = []
        start = 0
        for number, (sel, fits) in enumerate(zip(self.items, wanted), start=1):
            at = next((k for k in range(start, len(calls)) if position(calls[k]) in fits), None)
            if at is None:
                after = f" after {chosen[-1].label}" if chosen else ""
                head = self._matched(chosen)
                return decided(False, f"{head}no {sel.desc} (item {number}){after}",
                               evidence_of(*chosen))
            chosen.append(calls[at])
            start = at + 1
        return decided(True, "in order: " + ", ".join(located(c.label, c.prov) for c in chosen),
                       evidence_of(*chosen))

    def _exact(self, calls: list[Val], wanted: list[set]) -> Verdict:
        for number, (call, sel, fits) in enumerate(zip(calls, self.items, wanted), start=1):
            if position(call) not in fits:
                return decided(False, f"call {number} is {located(call.label, call.prov)}, "
                               f"expected {sel.desc}", evidence_of(call))
        if len(calls) != len(self.items):
            return decided(False, f"the run made {count(len(calls), 'tool call')}, expected exactly "
                           f"{len(self.items)} in this order", evidence_of(*calls[:5]))
        return decided(True, "exactly in order: " + ", ".join(located(c.label, c.prov) for c in calls),
                       evidence_of(*calls))

    @staticmethod
    def _matched(chosen: list[Val]) -> str:
        return ("matched " + ", ".join(c.label for c in chosen) + "; ") if chosen else ""


@dataclass
class EachCheck(Leaf):
    items: tuple[Select | Steps, ...]

    def decide(self, ctx: Context) -> Verdict:
        found = [sel.items(ctx) for sel in self.items]
        pool: dict[tuple, Val] = {}
        for items in found:
            for item in items:
                pool.setdefault(_key(item), item)
        keys = sorted(pool, key=lambda k: (position(pool[k]), str(k)))
        candidates = [{_key(i) for i in items} for items in found]
        matched = pair_up(candidates, keys, lambda fits, key: key in fits)
        missing = [sel.desc for sel, m in zip(self.items, matched) if m is None]
        used = [pool[keys[m]] for m in matched if m is not None]
        if missing:
            return decided(False, f"{len(missing)} of {len(self.items)} items have no distinct "
                           f"match: " + "; ".join(missing), evidence_of(*used))
        pairs = [f"{sel.desc} → {located(pool[keys[m]].label, pool[keys[m]].prov)}"
                 for sel, m in zip(self.items, matched) if m is not None]  # all matched here
        return decided(True, "each matched: " + "; ".join(pairs), evidence_of(*used))


@dataclass
class OnlyCheck(Leaf):
    """Every tool call of the run is in one of ``items`` (suspect records too: a
    call referee cannot vouch for may still be one that was not allowed)."""

    items: tuple[Select | Steps, ...]

    def decide(self, ctx: Context) -> Verdict:
        calls = records(ctx, read_calls)
        allowed = {position(v) for sel in self.items for v in sel.items(ctx)}
        others = [call for call in calls if position(call) not in allowed]
        listed = "[" + ", ".join(sel.desc for sel in self.items) + "]"
        if not calls:
            return Verdict(Outcome.PASS, f"the run made no tool calls; 'only {listed}' holds "
                           "vacuously", vacuous=True)
        if others:
            shown = ", ".join(located(c.label, c.prov) for c in others[:DETAIL_LIMIT])
            more = f" and {len(others) - DETAIL_LIMIT} more" if len(others) > DETAIL_LIMIT else ""
            return decided(False, f"{len(others)} of {len(calls)} calls are none of {listed}: "
                           f"{shown}{more}", evidence_of(*others[:DETAIL_LIMIT]))
        return decided(True, f"all {len(calls)} calls are among {listed}", evidence_of(*calls[:DETAIL_LIMIT]))


@dataclass(frozen=True, eq=False)
class Steps:
    """Steps of the run held by a value that is not written as a selection
    (``first(calls to "x")``, a list a let holds): the part of a selection's
    interface the order checks use. One record is a list of one."""

    expr: Expr
    desc: str
    records_only: bool = True  # False for `each of`, which pairs any elements

    def items(self, ctx: Context) -> tuple[Val, ...]:
        val = self.expr.eval(ctx)
        if isinstance(val, Missing):
            return ()
        found = elements(val) if isinstance(val.value, (list, tuple)) else (val,)
        for item in found if self.records_only else ():
            if not isinstance(item.value, (ToolCall, Note)):
                raise EvalError(f"{self.desc} holds {type_name(item.value)} {render(item.value)[:40]}, "
                                "not a step of the run (a tool call or a note)")
        return found

    def claims(self, ctx: Context):
        val = self.expr.eval(ctx)
        return val.claims

    def why_empty(self, ctx: Context) -> str:
        val = self.expr.eval(ctx)
        return val.reason if isinstance(val, Missing) else (val.empty or f"{self.desc} is empty")


_STEP_KINDS = {"calls": "calls", "call": "calls", "notes": "notes", "note": "notes", "any": None}


def _steps(c, node: ast.Value, scope, allowed: tuple[str, ...] | None, what: str) -> Select | Steps:
    """A selection, a let name bound to one (the very selection the let compiles
    to), or another value that holds steps of the run. ``allowed``: the sources
    the check orders (None: any elements, as ``each of`` pairs)."""
    written = _written_selection(c, node)
    if written is not None:
        path, selection = written
        sel = c.at_path(path, lambda: c.selection(selection, scope))
        if allowed is not None and selection.source.kind not in allowed:
            c.error("bad-operand", f"{what} works on {', '.join(allowed)}; not on "
                    f"{selection.source.kind}", node.span)
        return sel
    expr = c.value(node, scope)
    kind = _STEP_KINDS.get(expr.kind, "")
    if allowed is not None and (kind == "" or (kind is not None and kind not in allowed)):
        c.error("bad-operand", f"{what} works on steps of the run ({', '.join(allowed)}); "
                f"{format_value(node)} is not one", node.span,
                "write a selection such as calls to \"x\", or a let name bound to one")
    return Steps(expr, format_value(node), allowed is not None)


def _written_selection(c, node: ast.Value) -> tuple[str | None, ast.Selection] | None:
    """(the file it is written in, the selection) for a selection, or for a let
    name bound to one (through names bound to names); else None."""
    seen: set[str] = set()
    path = None
    while isinstance(node, ast.NameRef) and node.name in c.let_nodes and node.name not in seen:
        seen.add(node.name)
        path, let = c.let_nodes[node.name]
        node = let.value
    return (path, node) if isinstance(node, ast.Selection) else None


def compile_before(c, node: ast.Before, scope) -> BeforeCheck:
    first = _steps(c, node.first, scope, ORDERED_SOURCES, "'before'")
    second = _steps(c, node.second, scope, ORDERED_SOURCES, "'before'")
    return BeforeCheck(first, second)


def compile_in_order(c, node: ast.InOrder, scope) -> InOrderCheck:
    what = "'exactly in order'" if node.exact else "'in order'"
    items = tuple(_steps(c, s, scope, ("calls",), what) for s in node.items)
    return InOrderCheck(items, node.exact)


def compile_each(c, node: ast.EachDistinct, scope) -> EachCheck:
    return EachCheck(tuple(_steps(c, s, scope, None, "'each of'") for s in node.items))


def compile_only(c, node: ast.Only, scope) -> OnlyCheck:
    return OnlyCheck(tuple(_steps(c, s, scope, ("calls",), "'only'") for s in node.items))


CHECK_COMPILERS: dict[type, CheckCompiler] = {
    ast.Before: compile_before, ast.InOrder: compile_in_order, ast.EachDistinct: compile_each,
    ast.Only: compile_only,
}
