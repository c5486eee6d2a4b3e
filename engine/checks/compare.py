"""Comparisons: ``== != < <= > >=``, ``between``, and a bare value as a condition.

No coercion: text never equals a number (the message says so and suggests
``number(...)``), and ordering text against a number is an ERROR. Numbers compare
as Decimal, so 711 is not 11 and ``number("168") == number("168.00")``.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, replace
from typing import Any

from referee.dsl import ast
from referee.dsl.format import format_value
from referee.engine.checks.base import (CheckCompiler, Context, Expr, Leaf, Polarity, claims_of, decided,
                                        describe_val, evidence_of, located, missing_verdict, present,
                                        with_claims)
from referee.engine.checks.exprs import Const
from referee.engine.checks.folding import text_form
from referee.engine.checks.markdown_equal import not_equal_as_shown
from referee.engine.checks.matching import includes
from referee.engine.checks.one_item import not_one_item
from referee.engine.equality import equal, mismatch_hint
from referee.engine.values import (EvalError, Missing, Val, as_decimal, is_number, parse_number, render,
                                   short, type_name)
from referee.engine.verdict import Verdict

ORDER_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
WANT = {"==": "{}", "!=": "anything but {}", "<": "less than {}", "<=": "at most {}",
        ">": "more than {}", ">=": "at least {}"}


def ordered(a: Any, b: Any, op: str, what: str) -> bool:
    """``a op b`` for two numbers or two texts; EvalError for anything else."""
    if is_number(a) and is_number(b):
        left, right = as_decimal(a), as_decimal(b)
        if left.is_nan() or right.is_nan():
            raise EvalError(f"NaN (not a number) has no order, so '{op}' cannot hold or fail: {what}")
        return ORDER_OPS[op](left, right)
    if isinstance(a, str) and isinstance(b, str):  # in the form == compares them in (NFC)
        return ORDER_OPS[op](text_form(a), text_form(b))
    ta, tb = type_name(a), type_name(b)
    raise EvalError(f"cannot order {ta} and {tb}: {what}"
                    + ("; use number(...)" if {ta, tb} == {"text", "number"} else ""))


def holds(op: str, a: Any, b: Any, ignore_case: bool, what: str) -> bool:
    if op == "==":
        return equal(a, b, ignore_case)
    if op == "!=":
        return not equal(a, b, ignore_case)
    if ignore_case and isinstance(a, str) and isinstance(b, str):
        a, b = text_form(a, True), text_form(b, True)
    return ordered(a, b, op, what)


def describe_pair(left: Val, right: Val) -> tuple[str, str]:
    """(fact about the left value, the expected right value as a phrase)."""
    fact = describe_val(left)
    if right.prov is None:
        return fact, render(right.value)
    return fact, located(f"{right.label} ({render(right.value)})", right.prov, right.support)


@dataclass
class CompareCheck(Leaf):
    op: str
    left: Expr
    right: Expr
    ignore_case: bool
    polarity: Polarity

    def decide(self, ctx: Context) -> Verdict:
        try:
            left = self.left.eval(ctx)
        except EvalError as undecided:  # a count that may be some numbers may still decide
            from referee.engine.checks.count_bounds import bounded_count  # it reads selections, which read here

            return bounded_count(ctx, self.left, self.op, self.right, self.polarity, WANT[self.op], undecided)
        right = self.right.eval(ctx)
        if isinstance(left, Missing):
            return missing_verdict(left)
        if isinstance(right, Missing):
            return missing_verdict(right)
        fact, other = describe_pair(left, right)
        ok = holds(self.op, left.value, right.value, self.ignore_case, f"{fact} vs {other}")
        if self.op in ("==", "!=") and ok is (self.op == "!="):  # differ as written: maybe not as Markdown is shown
            not_equal_as_shown(left, right, self.ignore_case)
            not_one_item(left, right, self.ignore_case)
        message = self.polarity.message(ok, fact, WANT[self.op].format(other))
        hint = mismatch_hint(left.value, right.value) if not ok else ""
        if hint:
            message += f"; {hint}"
        return _with_claims(decided(ok, message, evidence_of(left, right), expected=right.value,
                                    observed=left.value), (left, right), self.polarity)


@dataclass
class BetweenCheck(Leaf):
    subject: Expr
    low: Expr
    high: Expr
    polarity: Polarity

    def decide(self, ctx: Context) -> Verdict:
        values = present([self.subject.eval(ctx), self.low.eval(ctx), self.high.eval(ctx)])
        if isinstance(values, Missing):
            return missing_verdict(values)
        subject, low, high = values
        fact = describe_val(subject)
        want = f"between {render(low.value)} and {render(high.value)}"
        ok = (ordered(low.value, subject.value, "<=", f"{fact} {want}")
              and ordered(subject.value, high.value, "<=", f"{fact} {want}"))
        return decided(ok, self.polarity.message(ok, fact, want), evidence_of(*values),
                       expected=[low.value, high.value], observed=subject.value)


@dataclass
class TruthyCheck(Leaf):
    value: Expr
    polarity: Polarity

    def decide(self, ctx: Context) -> Verdict:
        val = self.value.eval(ctx)
        if isinstance(val, Missing):
            return missing_verdict(val)
        ok = val.value is True
        fact = describe_val(val)
        return decided(ok, self.polarity.message(ok, fact, "true"), evidence_of(val),
                       expected=True, observed=val.value)


@dataclass
class IncludesCheck(Leaf):
    subject: Expr
    expected: Expr
    polarity: Polarity

    def decide(self, ctx: Context) -> Verdict:
        subject, expected = self.subject.eval(ctx), self.expected.eval(ctx)
        if isinstance(subject, Missing):
            return missing_verdict(subject)
        if isinstance(expected, Missing):
            return missing_verdict(expected)
        reason = includes(subject.value, expected.value)
        shown = short(render(expected.value), 80)
        fact = located(f"{subject.label} includes {shown}" if reason is None
                       else f"{subject.label}: {reason}", subject.prov)
        return decided(reason is None, self.polarity.message(reason is None, fact, f"to include {shown}"),
                       evidence_of(subject, expected), expected=expected.value,
                       observed=subject.value)


def _with_claims(verdict: Verdict, values: tuple[Val, ...], polarity: Polarity) -> Verdict:
    """On a failing assertion, say which agent notes claim what ``values`` lack."""
    if verdict.passed == polarity.positive:
        return verdict
    claims = claims_of(*values)
    if not claims:
        return verdict
    return replace(verdict, message=with_claims(verdict.message, claims),
                   details=verdict.details + tuple(c.message for c in claims))


def compile_includes(c, node: ast.Includes, scope) -> IncludesCheck:
    return IncludesCheck(c.value(node.subject, scope), c.value(node.expected, scope), scope.polarity)


def compile_compare(c, node: ast.Compare, scope) -> CompareCheck:
    left, right = c.value(node.left, scope), c.value(node.right, scope)
    same_kinds(c, node.op, (node.left, left.kind), (node.right, right.kind))
    return CompareCheck(node.op, left, right, node.ignore_case, scope.polarity)


def compile_between(c, node: ast.Between, scope) -> BetweenCheck:
    subject, low, high = (c.value(v, scope) for v in (node.subject, node.low, node.high))
    for bound, compiled in ((node.low, low), (node.high, high)):
        same_kinds(c, "between", (node.subject, subject.kind), (bound, compiled.kind))
    if isinstance(low, Const) and isinstance(high, Const) and _reversed(low.val.value, high.val.value):
        c.error("bad-operand", f"'between {format_value(node.low)} and {format_value(node.high)}': the low "
                "bound is above the high one, so it never holds", node.span,
                f"write between {format_value(node.high)} and {format_value(node.low)}")
    return BetweenCheck(subject, low, high, scope.polarity)


def _reversed(low: Any, high: Any) -> bool:
    """Whether two bounds written as numbers stand the wrong way round."""
    if not (is_number(low) and is_number(high)):
        return False
    low, high = as_decimal(low), as_decimal(high)
    return low.is_finite() and high.is_finite() and low > high


def same_kinds(c, op: str, left: tuple, right: tuple, never: str | None = None, convert: bool = True) -> None:
    """A number compared with text, which no run can make hold (no coercion):
    ``count(calls) == "2"``, or ``"12" in numbers(x)`` where a side is a list given
    the kind of its items. Reported at the side that is a literal, if one is.
    ``never`` says what the test then does on every run, where ``op`` does not
    tell; ``convert`` false: ``number(...)`` of the other side is no way out."""
    kinds = {left[1], right[1]}
    if kinds != {"number", "text"}:
        return
    (node, _), (other, _) = (right, left) if isinstance(right[0], ast.Literal) else (left, right)
    shown, against = format_value(node), format_value(other)
    never = never or {"==": "never holds", "!=": "always holds"}.get(op, "is an error on every run")
    hint = None
    if isinstance(node, ast.Literal) and isinstance(node.value, str):
        if parse_number(node.value) is not None:
            hint = f"write the number {node.value.strip()}, without quotes"
    elif isinstance(node, ast.Literal):
        hint = f"write the text \"{shown}\"" + (f", or compare number({against})" if convert else "")
    c.error("bad-operand", f"'{op}' compares a number with text here ({against} and {shown}), "
            f"so it {never}: the language never converts one into the other", node.span, hint)


# What a value the compiler knows is, said as a condition must be written instead.
_INSTEAD = {"calls": "exists {0}", "notes": "exists {0}", "rows": "exists {0}", "lines": "exists {0}",
            "texts": "exists {0}", "numbers": "exists {0}", "list": "exists {0}",
            "text": "{0} is not empty", "number": "{0} > 0"}


def compile_truthy(c, node: ast.Truthy, scope):
    """A bare value as a condition; a let name bound to a condition is that condition.
    A list, a text or a number is never ``true``: such a condition never holds."""
    if isinstance(node.value, ast.NameRef) and c.names(node.value.name) == "condition":
        return c.condition_let(node.value.name, scope)
    value = c.value(node.value, scope)
    instead = _INSTEAD.get(value.kind)
    if instead is not None:
        shown = format_value(node.value)
        what = {"text": "text", "number": "a number"}.get(value.kind, "a list")
        c.error("bad-operand", f"{shown} is {what}, not a condition: as one it never holds",
                node.span, f"did you mean `{instead.format(shown)}`?")
    return TruthyCheck(value, scope.polarity)


CHECK_COMPILERS: dict[type, CheckCompiler] = {
    ast.Compare: compile_compare, ast.Between: compile_between, ast.Truthy: compile_truthy,
    ast.Includes: compile_includes,
}
