"""Quantifiers (``any``, ``all``, ``no``, ``exactly N``) and existence checks.

``all`` and ``no`` over an empty selection pass vacuously (``vacuous=True``), so a
report can say the assertion examined nothing; ``no calls to "X"`` without ``where``
or ``have`` says such calls do not exist, and an empty selection is its evidence. ``any`` over an empty selection
fails, and the message says which agent notes claim the missing call anyway.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import chain

from referee.dsl import ast
from referee.engine.checks.base import (Check, CheckCompiler, Context, Expr, Leaf, decided, distinct,
                                        evidence_of, located, summarize, three_valued_all, three_valued_any,
                                        with_claims)
from referee.engine.checks.run_sources import PartlyRead, check_name, output_place, read_file_text
from referee.engine.checks.sources import Kept, Select
from referee.engine.checks.closeness import closest_first
from referee.engine.checks.access import elements
from referee.engine.checks.expr_compilers import compile_list
from referee.engine.values import EvalError, Missing, Val, render
from referee.engine.verdict import Evidence, Outcome, Verdict


# The outcome of the condition on one element that decides each quantifier whatever the
# other elements are: a PASS decides 'any' (a pass) and 'no' (a fail), a FAIL decides 'all'.
_DECISIVE = {"any": Outcome.PASS, "no": Outcome.PASS, "all": Outcome.FAIL}


def _untold(selection: Select, undecided: EvalError) -> str:
    """What a verdict over the elements a selection keeps for certain adds: why the others
    are unknown, or that more may follow those read."""
    if isinstance(undecided, PartlyRead):
        return f"(decided by those read; more may follow: {undecided})"
    return f"(whether others are {selection.desc} cannot be told: {undecided})"


def _unfiltered_records(selection: Expr) -> bool:
    """A selection of records that no ``where`` narrows (``to``, ``with status`` and
    ``at step`` name what is selected; a ``where`` tests it)."""
    return isinstance(selection, Select) and all(f.check is None for f in selection.filters)


def _outcomes(items: tuple[Val, ...], verdicts: list[Verdict] | None) -> list[Outcome]:
    """Each element's outcome: its verdict's, or a pass where no condition tests it."""
    return [Outcome.PASS] * len(items) if verdicts is None else [v.outcome for v in verdicts]


def _element_evidence(item: Val, verdict: Verdict | None) -> tuple[Evidence, ...]:
    own = evidence_of(item)
    return distinct(own + verdict.evidence) if verdict else own


def _joined_evidence(pairs: Iterable[tuple[Val, Verdict | None]]) -> tuple[Evidence, ...]:
    """The evidence of many (element, verdict) pairs, in order, in linear time
    (adding tuples one by one would copy the growing tuple for every element)."""
    return tuple(chain.from_iterable(_element_evidence(i, v) for i, v in pairs))


@dataclass
class QuantifiedCheck(Leaf):
    quantifier: str
    count: int | None
    selection: Select
    condition: Check | None

    def decide(self, ctx: Context) -> Verdict:
        try:
            items = self.selection.items(ctx)
        except EvalError as undecided:
            return self._partly_known(ctx, undecided)
        if not items:
            return self._empty(ctx)
        return getattr(self, f"_{self.quantifier}")(items, self._verdicts(ctx, items))

    def _partly_known(self, ctx: Context, undecided: EvalError) -> Verdict:
        """A selection that cannot be made whole (a filter cannot decide on an element:
        a call without a status; a source read in part: a transcript cut inside a
        record) decides ``any``, ``no`` and ``all`` all the same when the elements it
        surely keeps do: a call read as failed fails 'no calls with status error'
        whatever the others are; and ``exactly N`` when more than N surely pass, or
        fewer than N may. Else it is the ERROR the selection raised."""
        if not isinstance(self.selection, Select) or (self.quantifier not in _DECISIVE
                                                      and self.quantifier != "exactly"):
            raise undecided
        kept = self.selection.partly_kept(ctx)
        if not kept.sure:
            raise undecided
        verdicts = self._verdicts(ctx, kept.sure)
        if not self._decided_in_part(kept, verdicts):
            raise undecided
        verdict = getattr(self, f"_{self.quantifier}")(kept.sure, verdicts)
        return replace(verdict, message=f"{verdict.message} {_untold(self.selection, undecided)}")

    def _decided_in_part(self, kept: Kept, verdicts: list[Verdict] | None) -> bool:
        """Whether the verdicts on the elements kept for certain decide the quantifier
        whatever the elements not known to be kept are (``kept.open`` of those read,
        and any number more when the source was read in part)."""
        if self.quantifier == "exactly":
            outcomes = _outcomes(kept.sure, verdicts)
            passes = outcomes.count(Outcome.PASS)
            most = len(outcomes) - outcomes.count(Outcome.FAIL) + kept.open
            assert self.count is not None  # compile refuses 'exactly' without a count
            return passes > self.count or (kept.unread is None and most < self.count)
        if verdicts is None:
            return self.quantifier != "all"
        return any(v.outcome is _DECISIVE[self.quantifier] for v in verdicts)

    def _verdicts(self, ctx: Context, items: tuple[Val, ...]) -> list[Verdict] | None:
        """The condition's verdict on each element; None without a condition (each
        element then counts as passing).

        ``any`` stops at the first PASS: it is the one the verdict quotes, and no
        later outcome can change a PASS of ``any``.
        """
        if self.condition is None:
            return None
        verdicts = []
        for item in items:
            verdicts.append(self.condition.evaluate(ctx.at(item)))
            if self.quantifier == "any" and verdicts[-1].outcome is Outcome.PASS:
                break
        return verdicts

    def _empty(self, ctx: Context) -> Verdict:
        holds = self.quantifier in ("all", "no") or (self.quantifier == "exactly" and self.count == 0)
        claims = self.selection.claims(ctx)
        message = self.selection.why_empty(ctx)
        vacuous = self._vacuous(ctx)
        message += f"; '{self.quantifier}' holds vacuously" if holds and vacuous else ""
        return Verdict(Outcome.PASS if holds else Outcome.FAIL, with_claims(message, claims),
                       vacuous=vacuous, details=tuple(c.message for c in claims))

    def _vacuous(self, ctx: Context) -> bool:
        """Whether a verdict over an empty selection examined nothing.

        ``no S``, ``exactly 0 S`` and ``any S`` over records, with neither ``where``
        nor ``have``, say whether such calls exist: a record read whole that holds
        none is the evidence itself, as it is for ``count(S) == 0`` ("no calls to
        "Bash"" in a run whose calls are all Reads). A condition over nothing tested
        nothing, unless a ``where`` looked at elements and refused them: "no calls
        to "Bash" where ... push" examined the run's Bash calls, one about a tool
        never called examined nothing.
        """
        if self.condition is None and self.quantifier != "all" and _unfiltered_records(self.selection):
            return False
        examined = getattr(self.selection, "examined", None)
        return not (examined is not None and examined(ctx))

    def _any(self, items: tuple[Val, ...], verdicts: list[Verdict] | None) -> Verdict:
        if verdicts is None:
            return decided(True, f"found {len(items)} {self.selection.desc}: "
                           + summarize([located(i.label, i.prov) for i in items]),
                           evidence_of(*items))
        outcome = three_valued_any(verdicts)
        if outcome is Outcome.PASS:
            index = next(k for k, v in enumerate(verdicts) if v.outcome is Outcome.PASS)
            return decided(True, verdicts[index].message, _element_evidence(items[index], verdicts[index]))
        return self._combined(outcome, f"none of the {len(items)} {self.selection.desc} passes",
                              items, verdicts, Outcome.FAIL)

    def _all(self, items: tuple[Val, ...], verdicts: list[Verdict] | None) -> Verdict:
        if verdicts is None:
            return decided(True, f"all {len(items)} {self.selection.desc}", evidence_of(*items))
        outcome = three_valued_all(verdicts)
        if outcome is Outcome.PASS:
            return decided(True, f"all {len(items)} {self.selection.desc} pass: "
                           + summarize([v.message for v in verdicts]),
                           _joined_evidence(zip(items, verdicts)))
        failing = sum(v.outcome is Outcome.FAIL for v in verdicts)
        return self._combined(outcome, f"{failing} of {len(items)} {self.selection.desc} fail",
                              items, verdicts, Outcome.FAIL)

    def _no(self, items: tuple[Val, ...], verdicts: list[Verdict] | None) -> Verdict:
        if verdicts is None:
            return decided(False, f"found {len(items)} {self.selection.desc}: "
                           + summarize([located(i.label, i.prov) for i in items]), evidence_of(*items))
        outcome = three_valued_any(verdicts)
        flipped = {Outcome.PASS: Outcome.FAIL, Outcome.FAIL: Outcome.PASS}.get(outcome, outcome)
        if flipped is Outcome.PASS:
            return decided(True, f"none of the {len(items)} {self.selection.desc} does: "
                           + summarize([v.message for v in verdicts]), evidence_of(*items))
        hits = sum(v.outcome is Outcome.PASS for v in verdicts)
        return self._combined(flipped, f"{hits} of {len(items)} {self.selection.desc} do",
                              items, verdicts, Outcome.PASS)

    def _exactly(self, items: tuple[Val, ...], verdicts: list[Verdict] | None) -> Verdict:
        count = self.count
        assert count is not None  # compile refuses 'exactly' without a count
        outcomes = _outcomes(items, verdicts)
        passes = outcomes.count(Outcome.PASS)
        unknown = len(outcomes) - passes - outcomes.count(Outcome.FAIL)
        message = f"{passes} of {len(items)} {self.selection.desc} pass, expected exactly {count}"
        if verdicts is None:  # every element passes
            return decided(passes == count, message, _joined_evidence((i, None) for i in items))
        if unknown and passes <= count <= passes + unknown:
            shown = [v for v in verdicts if v.outcome not in (Outcome.PASS, Outcome.FAIL)]
            return Verdict(shown[0].outcome, f"{message}; {shown[0].message}", shown[0].evidence)
        chosen = [(i, v) for i, v in zip(items, verdicts) if v.outcome is Outcome.PASS]
        return decided(passes == count, message, _joined_evidence(chosen))

    def _combined(self, outcome: Outcome, head: str, items: tuple[Val, ...], verdicts: list[Verdict],
                  shown: Outcome) -> Verdict:
        """A non-pass: the heading plus the messages of the elements that decided it."""
        if outcome in (Outcome.ERROR, Outcome.NOT_GRADED):
            first = next(v for v in verdicts if v.outcome is outcome)
            return Verdict(outcome, f"{head}; {first.message}", first.evidence)
        picked = [(i, v) for i, v in zip(items, verdicts) if v.outcome is shown]
        if shown is Outcome.FAIL and len(picked) > 1:  # the nearest miss first: its field is the one to fix
            picked = closest_first(picked)
            head += " (closest first)"
        return Verdict(outcome, f"{head}: " + summarize([v.message for _, v in picked]),
                       _joined_evidence(picked))


@dataclass
class ExistsCheck(Leaf):
    target: Expr  # a Select, or any other value
    file: str | None  # set for ``exists file "x"``: existence is asked of the disk

    def decide(self, ctx: Context) -> Verdict:
        if self.file is not None:
            check_name(ctx, self.file)
            found = ctx.run.exists_output(self.file)
            if not found:
                # a link out of the run, a broken one, a folder, a FIFO is there but
                # not read: an ERROR naming why, never "does not exist"
                read_file_text(ctx, self.file)
            verb = "exists" if found else "does not exist"
            where = Evidence("outputs", output_place(self.file), quote="")
            return decided(found, f"outputs/{self.file} {verb}", (where,) if found else ())
        if isinstance(self.target, Select):
            try:
                items = self.target.items(ctx)
            except EvalError as undecided:  # an element kept for certain is there all the same
                items = self.target.partly_kept(ctx).sure
                if not items:
                    raise
                return decided(True, f"found {len(items)} {self.target.desc} {_untold(self.target, undecided)}",
                               evidence_of(*items[:5]))
            return decided(bool(items), f"found {len(items)} {self.target.desc}"
                           if items else self.target.why_empty(ctx), evidence_of(*items[:5]))
        val = self.target.eval(ctx)
        if isinstance(val, Missing):
            return decided(False, val.reason)
        ok = val.value is not None and (val.items is None or bool(val.items))
        return decided(ok, located(f"{val.label} is {render(val.value)[:60]}", val.prov), evidence_of(val))


@dataclass
class EmptinessCheck(Leaf):
    subject: Expr
    negated: bool  # ``is not empty``

    def decide(self, ctx: Context) -> Verdict:
        val = self.subject.eval(ctx)
        if isinstance(val, Missing):
            return decided(not self.negated, f"{val.reason} (empty)")
        empty, size = _emptiness(val)
        state = "empty" if empty else f"not empty ({size})"
        return decided(empty != self.negated, located(f"{val.label} is {state}", val.prov),
                       evidence_of(val))


def _emptiness(val: Val) -> tuple[bool, str]:
    value = val.value
    if value is None:
        return True, ""
    if isinstance(value, str):
        return not value.strip(), f"{len(value)} characters"
    if isinstance(value, (list, tuple)):
        count = len(elements(val))
        return count == 0, f"{count} items"
    if isinstance(value, dict):
        return not value, f"{len(value)} keys"
    return False, render(value)


def compile_quantified(c, node: ast.Quantified, scope) -> QuantifiedCheck:
    selection = compile_list(c, node.selection, scope)
    condition = None
    if node.condition is not None:
        polarity = scope.polarity.flip() if node.quantifier == "no" else scope.polarity
        inner = c.element_scope(selection.kind, polarity)
        condition = c.cond(node.condition, inner)
    if node.quantifier == "exactly" and (node.count is None or node.count < 0):
        c.error("bad-operand", "'exactly' needs a whole number of elements", node.span)
    return QuantifiedCheck(node.quantifier, node.count, selection, condition)


def compile_exists(c, node: ast.Exists, scope) -> ExistsCheck:
    target = c.value(node.target, scope)
    sel = node.target
    path = None
    if isinstance(sel, ast.Selection) and sel.source.kind == "file" and not sel.filters:
        path = sel.source.path
    return ExistsCheck(target, path)


def compile_emptiness(c, node: ast.Emptiness, scope) -> EmptinessCheck:
    return EmptinessCheck(c.value(node.subject, scope), node.negated)


CHECK_COMPILERS: dict[type, CheckCompiler] = {
    ast.Quantified: compile_quantified, ast.Exists: compile_exists,
    ast.Emptiness: compile_emptiness,
}
