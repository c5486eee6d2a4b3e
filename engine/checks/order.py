"""Order and pairing of steps: ``before``, ``in order``, ``exactly in order``, ``each of``.

Elements are ordered by their transcript index (calls and notes share one
sequence); the response comes after every step. ``each of`` pairs items with
distinct elements by maximum matching, so the expected list's order never
changes the verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee.dsl import ast
from referee.engine.checks.base import (CheckCompiler, Context, Leaf, decided, evidence_of,
                                        located, with_claims)
from referee.engine.checks.matching import pair_up
from referee.engine.checks.sources import Select, read_calls, records
from referee.engine.run.model import Note, ToolCall
from referee.engine.values import Val
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


def _none_found(ctx: Context, sel: Select) -> Verdict:
    claims = sel.claims(ctx)
    return Verdict(Outcome.FAIL, with_claims(sel.why_empty(ctx), claims), vacuous=True,
                   details=tuple(c.message for c in claims))


@dataclass
class BeforeCheck(Leaf):
    first: Select
    second: Select

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
    items: tuple[Select, ...]
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
            return decided(False, f"the run made {len(calls)} tool calls, expected exactly "
                           f"{len(self.items)} in this order", evidence_of(*calls[:5]))
        return decided(True, "exactly in order: " + ", ".join(located(c.label, c.prov) for c in calls),
                       evidence_of(*calls))

    @staticmethod
    def _matched(chosen: list[Val]) -> str:
        return ("matched " + ", ".join(c.label for c in chosen) + "; ") if chosen else ""


@dataclass
class EachCheck(Leaf):
    items: tuple[Select, ...]

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


def _ordered_selection(c, node: ast.Selection, scope, allowed: tuple[str, ...], what: str) -> Select:
    sel = c.selection(node, scope)
    if node.source.kind not in allowed:
        c.error("bad-operand", f"{what} works on {', '.join(allowed)}; not on {node.source.kind}",
                node.span)
    return sel


def compile_before(c, node: ast.Before, scope) -> BeforeCheck:
    first = _ordered_selection(c, node.first, scope, ORDERED_SOURCES, "'before'")
    second = _ordered_selection(c, node.second, scope, ORDERED_SOURCES, "'before'")
    return BeforeCheck(first, second)


def compile_in_order(c, node: ast.InOrder, scope) -> InOrderCheck:
    what = "'exactly in order'" if node.exact else "'in order'"
    items = tuple(_ordered_selection(c, s, scope, ("calls",), what) for s in node.items)
    return InOrderCheck(items, node.exact)


def compile_each(c, node: ast.EachDistinct, scope) -> EachCheck:
    return EachCheck(tuple(c.selection(s, scope) for s in node.items))


CHECK_COMPILERS: dict[type, CheckCompiler] = {
    ast.Before: compile_before, ast.InOrder: compile_in_order, ast.EachDistinct: compile_each,
}
