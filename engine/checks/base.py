"""The check protocol, the evaluation context, and verdict helpers.

Every compiled condition is a ``Check`` with ``evaluate(ctx) -> Verdict``; every
compiled value is an ``Expr`` with ``eval(ctx) -> Val | Missing``. Leaf checks
derive from ``Leaf``, which turns an ``EvalError`` raised anywhere below it into an
ERROR verdict, so one bad value never stops the other operands of ``and``/``or``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Mapping, Protocol, TypeVar

from referee.dsl.frozen import frozen
from referee.engine.budget import spend
from referee.engine.checks.access import UnsureError
from referee.engine.values import Claim, EvalError, Missing, Prov, Result, Val
from referee.engine.verdict import Evidence, Outcome, Verdict

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

T = TypeVar("T")
NOT_GRADED_MESSAGE = "semantic: needs the LLM grader (--llm); none was given"
DETAIL_LIMIT = 5


class _Cycle:
    """Marks a let being evaluated, so a runtime self-reference cannot recurse."""


class Context:
    """What a check sees: the run, the eval's lets and, inside ``where``/``have``,
    the current element.

    Everything derived from the run alone is computed at most once per run and
    shared by every assertion of the eval: let values (``memo``), and the records
    and selections in ``cache`` (keyed by the compiled object that computes them).
    A selection never depends on the current element (``where`` looks only at the
    element it filters), so one cache serves every element context.
    """

    __slots__ = ("run", "lets", "memo", "cache", "current")

    def __init__(self, run: Run, lets: Mapping[str, "Expr"], memo: dict | None = None,
                 current: Val | None = None, cache: dict | None = None):
        self.run = run
        self.lets = lets
        self.memo = {} if memo is None else memo
        self.cache = {} if cache is None else cache
        self.current = current

    def at(self, element: Val | None) -> "Context":
        """The same run context with ``element`` as the current element.

        Every element a check examines passes through here, so this is where an
        assertion pays one step of its work budget per element (``engine.budget``).
        """
        if element is not None:
            spend(1, "examining elements one by one")
        return Context(self.run, self.lets, self.memo, element, self.cache)

    def once(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, computed once per run for ``key``.

        A failure (EvalError) is not kept: the next caller recomputes and meets
        the same failure, so every assertion that reads it reports it itself.
        """
        try:
            return self.cache[key]
        except KeyError:
            value = self.cache[key] = compute()
            return value

    def let(self, name: str) -> Result:
        cached = self.memo.get(name)
        if isinstance(cached, EvalError):
            raise cached
        if isinstance(cached, _Cycle):
            raise EvalError(f"let {name} refers to itself")
        if cached is not None:
            return cached
        self.memo[name] = _Cycle()
        try:
            value = self.lets[name].eval(self.at(None))
        except EvalError as err:
            self.memo[name] = err
            raise
        except BaseException:
            del self.memo[name]  # an engine defect: let the next assertion try again
            raise
        self.memo[name] = value
        return value


class Expr(Protocol):
    """A compiled value expression."""

    def eval(self, ctx: Context) -> Result: ...


class Check(Protocol):
    """A compiled condition: one verdict for one run, never an exception."""

    def evaluate(self, ctx: Context) -> Verdict: ...


# A compile function of one AST node type, called as f(compiler, node, scope); each
# check module maps the node types it owns to these (engine.checks.compiler joins them).
CheckCompiler = Callable[..., Check]
ExprCompiler = Callable[..., Expr]


class Leaf:
    """Base of predicate checks: ``decide`` may raise EvalError; evaluate never does."""

    def evaluate(self, ctx: Context) -> Verdict:
        try:
            return self.decide(ctx)
        except EvalError as err:
            return Verdict(Outcome.ERROR, error_message(ctx, err), evidence=err.evidence)

    def decide(self, ctx: Context) -> Verdict:  # pragma: no cover - overridden
        raise EvalError("check without a decision")


def error_message(ctx: Context, err: EvalError) -> str:
    """The ERROR's message; for a call unsure of a field, naming the run's warning
    that says why when there is one (looked up only here, on the error's path)."""
    if not isinstance(err, UnsureError):
        return err.message
    from referee.engine.checks.unsure_why import unsure_why

    why = unsure_why(ctx, err.call, err.fields)
    return err.message if why is None else f"{err.label} cannot give its {err.fields} for certain: {why}"


@frozen
class Polarity:
    """Whether a check's PASS is the assertion's pass (False under an odd ``not``).

    Leaves use it to phrase the message: a failing assertion says what was
    expected, a passing one states the fact alone.
    """

    positive: bool = True

    def flip(self) -> "Polarity":
        return Polarity(not self.positive)

    def message(self, holds: bool, fact: str, want: str) -> str:
        if holds == self.positive:
            return fact
        return f"{fact}, expected {want}" if self.positive else f"{fact}, expected not {want}"


def decided(holds: bool, message: str, evidence: Iterable[Evidence] = (), **extra: Any) -> Verdict:
    return Verdict(Outcome.PASS if holds else Outcome.FAIL, message, evidence=tuple(evidence), **extra)


def missing_verdict(missing: Missing) -> Verdict:
    """FAIL for a missing value, marked vacuous so ``not`` can say it passed vacuously.

    Agent notes claiming the missing thing go into the message and ``details``,
    never into ``evidence``: they explain the FAIL, they cannot support a PASS.
    """
    evidence = (missing.prov.evidence(),) if missing.prov is not None and missing.prov.file else ()
    return Verdict(Outcome.FAIL, with_claims(missing.reason, missing.claims), evidence=evidence,
                   vacuous=True, details=tuple(c.message for c in missing.claims))


def present(results: list[Result]) -> list[Val] | Missing:
    """``results`` as they are when none is missing; else the first missing one."""
    vals = []
    for result in results:
        if isinstance(result, Missing):
            return result
        vals.append(result)
    return vals


def with_claims(message: str, claims: tuple[Claim, ...]) -> str:
    if not claims:
        return message
    return message + "; " + "; ".join(c.message for c in claims)


def claims_of(*values: Result) -> tuple[Claim, ...]:
    return tuple(dict.fromkeys(c for v in values for c in v.claims))


def evidence_of(*values: Result) -> tuple[Evidence, ...]:
    """Evidence for the values a check looked at (literals carry none); a count
    points at the elements it counted."""
    out: list[Evidence] = []
    for value in values:
        if isinstance(value, Val):  # one loop, no list and generator per value: every verdict comes here
            for cited in value.support or (value,):
                found = cited.evidence()
                if found is not None:
                    out.append(found)
    return distinct(out)


def distinct(evidence: list[Evidence] | tuple[Evidence, ...]) -> tuple[Evidence, ...]:
    """``evidence`` without repeats, in order (one piece alone needs no hashing)."""
    return tuple(evidence) if len(evidence) < 2 else tuple(dict.fromkeys(evidence))


def located(label: str, prov: Prov | None, support: tuple[Val, ...] = ()) -> str:
    """``label (transcript.md:22)``; for a count, the places of what it counted."""
    if support:
        # The places shown, and one more to know whether to say there are others:
        # a count of 10,000 calls names five of them.
        places: list[str] = []
        for s in support:
            if s.prov and s.prov.file:
                places.append(s.prov.where())
                if len(places) > DETAIL_LIMIT:
                    break
        return f"{label} ({', '.join(places[:DETAIL_LIMIT])}{', …' if len(places) > DETAIL_LIMIT else ''})"
    return label if prov is None or not prov.file or prov.line is None else f"{label} ({prov.where()})"


def describe_val(val: Val) -> str:
    """``label is value (place)``: the fact a message states about a value."""
    from referee.engine.values import render

    return located(f"{val.label} is {render(val.value)}", val.prov, val.support)


def summarize(lines: list[str]) -> str:
    shown = lines[:DETAIL_LIMIT]
    rest = len(lines) - len(shown)
    return "; ".join(shown) + (f"; and {rest} more" if rest > 0 else "")


def three_valued_any(verdicts: list[Verdict]) -> Outcome:
    """``or`` over outcomes: any PASS; else ERROR; else NOT_GRADED; else FAIL."""
    return _first_present(verdicts, (Outcome.PASS, Outcome.ERROR, Outcome.NOT_GRADED), Outcome.FAIL)


def three_valued_all(verdicts: list[Verdict]) -> Outcome:
    """``and`` over outcomes: any FAIL; else ERROR; else NOT_GRADED; else PASS."""
    return _first_present(verdicts, (Outcome.FAIL, Outcome.ERROR, Outcome.NOT_GRADED), Outcome.PASS)


def _first_present(verdicts: list[Verdict], ranked: tuple[Outcome, ...], default: Outcome) -> Outcome:
    outcomes = {v.outcome for v in verdicts}
    return next((outcome for outcome in ranked if outcome in outcomes), default)
