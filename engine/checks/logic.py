"""``not``, ``and``, ``or`` with three-valued outcomes, and ``semantic``.

``not`` swaps PASS and FAIL and leaves ERROR and NOT_GRADED alone: negation never
turns a decided verdict into an error, nor an error into a pass. A negation that
passes because its subject was missing (an empty selection, a file that is not
there) is marked vacuous: it examined nothing. One that examined what it names
(a response that was read) is not, whatever else the run lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.dsl import ast
from referee.dsl.format import format_condition
from referee.dsl.frozen import frozen
from referee.engine.checks.base import (NOT_GRADED_MESSAGE, Check, CheckCompiler, Context,
                                        three_valued_all, three_valued_any)
from referee.engine.checks.static import walk
from referee.engine.judging import RULE_DECIDED, Awaiting
from referee.engine.verdict import Outcome, Verdict

_SWAP = {Outcome.PASS: Outcome.FAIL, Outcome.FAIL: Outcome.PASS}


@dataclass
class NotCheck:
    operand: Check

    def evaluate(self, ctx: Context) -> Verdict:
        inner = self.operand.evaluate(ctx)
        outcome = _SWAP.get(inner.outcome, inner.outcome)
        vacuous = outcome is Outcome.PASS and inner.vacuous
        return replace(inner, outcome=outcome, vacuous=vacuous)


@dataclass
class AndCheck:
    operands: tuple[Check, ...]

    def evaluate(self, ctx: Context) -> Verdict:
        verdicts = [op.evaluate(ctx) for op in self.operands]
        return _combine(three_valued_all(verdicts), verdicts, any_vacuous=True)


@dataclass
class OrCheck:
    operands: tuple[Check, ...]

    def evaluate(self, ctx: Context) -> Verdict:
        verdicts = [op.evaluate(ctx) for op in self.operands]
        return _combine(three_valued_any(verdicts), verdicts, any_vacuous=False)


def _combine(outcome: Outcome, verdicts: list[Verdict], any_vacuous: bool) -> Verdict:
    """The verdict of a connective: the operands that decided it explain it.

    For ``and`` a PASS needs every operand, so it is vacuous if any operand is;
    for ``or`` one sound passing operand is enough. Left to the grader, it says
    what the operands the engine decided found (``_awaiting``).
    """
    if outcome is Outcome.NOT_GRADED:
        return _awaiting(verdicts, Outcome.PASS if any_vacuous else Outcome.FAIL)
    deciding = [v for v in verdicts if v.outcome is outcome]
    # Operands failing for the same reason (one missing call read twice) say it once.
    said = list(dict.fromkeys(v.message for v in deciding))
    message = " and ".join(said) if outcome is Outcome.PASS and any_vacuous else "; ".join(said)
    evidence = tuple(dict.fromkeys(e for v in deciding for e in v.evidence))
    if outcome is Outcome.PASS:
        flags = [v.vacuous for v in deciding]
        vacuous = any(flags) if any_vacuous else all(flags)
    else:
        vacuous = all(v.vacuous for v in deciding)
    return Verdict(outcome, message, evidence=evidence, vacuous=vacuous)


def _awaiting(verdicts: list[Verdict], held: Outcome) -> Awaiting:
    """NOT_GRADED for ``and`` (``held`` PASS) or ``or`` (FAIL) whose rule operands
    did not decide it: what they found, with their evidence, waits with it."""
    found = [v.message for v in verdicts if v.outcome is held]
    found += [v.rule_part for v in verdicts if isinstance(v, Awaiting) and v.rule_part]
    evidence = tuple(dict.fromkeys(e for v in verdicts if v.outcome is held or isinstance(v, Awaiting)
                                   for e in v.evidence))
    rule_part = "; ".join(dict.fromkeys(found))
    waiting = [v.message for v in verdicts if v.outcome is Outcome.NOT_GRADED]
    return Awaiting(Outcome.NOT_GRADED, "; ".join(dict.fromkeys([rule_part] * bool(rule_part) + waiting)),
                    evidence=evidence, rule_part=rule_part)


@dataclass
class LiteralAndJudgement:
    """The check of an assertion that is part rule, part judgement (``... and
    semantic "..."``). When the rule part decides, that is the verdict, with no
    grader; else the judgement part goes to the grader. The verdict says which."""

    check: Check
    rubric: str

    def evaluate(self, ctx: Context) -> Verdict:
        verdict = self.check.evaluate(ctx)
        if verdict.outcome in (Outcome.PASS, Outcome.FAIL):
            return replace(verdict, message=f"{RULE_DECIDED}: {verdict.message}")
        if verdict.outcome is Outcome.NOT_GRADED and isinstance(verdict, Awaiting) and verdict.rule_part:
            return replace(verdict, message=f"the rule part: {verdict.rule_part}; the judgement part "
                           f"({self.rubric}) {NOT_GRADED_MESSAGE.removeprefix('semantic: ')}")
        return verdict


@dataclass
class SemanticCheck:
    """Never decided by the engine; an LLM grader judges the rubric when given."""

    rubric: str

    def evaluate(self, ctx: Context) -> Verdict:
        return Verdict(Outcome.NOT_GRADED, NOT_GRADED_MESSAGE)


@frozen
class Unusable:
    """Stands for a check that could not be compiled: its errors are reported, so a
    program holding it is never graded."""

    reason: str

    def evaluate(self, ctx: Context) -> Verdict:
        return Verdict(Outcome.ERROR, self.reason)


NEVER = Unusable("a let that refers to itself")


def compile_not(c, node: ast.Not, scope) -> NotCheck:
    lets = {name: let for name, (_, let) in c.let_nodes.items()}
    judgement = next((n for n in walk(node.operand, lets) if isinstance(n, ast.Semantic)), None)
    if judgement is not None:
        c.error("bad-operand", "the LLM grader answers a semantic question as it is asked; 'not' "
                "cannot turn its answer", judgement.span, "ask the question the other way round: "
                "semantic \"Is the reply polite?\" rather than not semantic \"Is it rude?\"")
    return NotCheck(c.cond(node.operand, scope.flipped()))


def compile_and(c, node: ast.And, scope) -> AndCheck:
    return AndCheck(_operands(c, node.operands, "and", ast.And, scope))


def compile_or(c, node: ast.Or, scope) -> OrCheck:
    return OrCheck(_operands(c, node.operands, "or", ast.Or, scope))


def _operands(c, operands: tuple[ast.Condition, ...], word: str, joined: type[ast.And] | type[ast.Or],
              scope) -> tuple[Check, ...]:
    """Compile each operand. After an operand that ends with a ``where``/``have``
    condition, a ``.field`` outside any element is the author's condition going on
    past ``and``/``or``: ``c.ended`` tells the path compiler what to say."""
    compiled = []
    for i, operand in enumerate(operands):
        trailing = _trailing_clause(operands[i - 1]) if i else None
        outer = c.ended
        if trailing is not None:
            clause, condition = trailing
            fix = format_condition(joined((condition, operand)))
            c.ended = (clause, word, f"{clause} ({fix})")
        compiled.append(c.cond(operand, scope))
        c.ended = outer
    return tuple(compiled)


def _trailing_clause(node: ast.Condition | ast.Value) -> tuple[str, ast.Condition] | None:
    """("where"|"have", its condition) when ``node``'s text ends with one."""
    if isinstance(node, ast.Quantified):
        if node.condition is not None:
            return _trailing_clause(node.condition) or ("have", node.condition)
        return _trailing_clause(node.selection)
    if isinstance(node, ast.Selection):
        last = node.filters[-1] if node.filters else None
        if isinstance(last, ast.WhereFilter):
            return _trailing_clause(last.condition) or ("where", last.condition)
        return None
    tail = {ast.Compare: "right", ast.Truthy: "value", ast.Exists: "target",
            ast.TextTest: "operand", ast.Includes: "expected"}.get(type(node))
    return _trailing_clause(getattr(node, tail)) if tail else None


def compile_semantic(c, node: ast.Semantic, scope) -> SemanticCheck:
    if scope.element is not None:
        c.error("bad-operand", "'semantic' cannot be used inside 'where' or 'have': the LLM "
                "grader judges a whole assertion, not one element", node.span)
    return SemanticCheck(node.text)


CHECK_COMPILERS: dict[type, CheckCompiler] = {
    ast.Not: compile_not, ast.And: compile_and, ast.Or: compile_or,
    ast.Semantic: compile_semantic,
}
