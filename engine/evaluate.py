"""Evaluate a compiled eval on one run: one verdict per assertion, never an exception.

Each assertion is evaluated on its own; whatever goes wrong inside one (even a
defect of the engine) becomes that assertion's ERROR verdict and the others are
still graded. Semantic assertions come back NOT_GRADED: an LLM grader, when one
is given, replaces those verdicts. Each assertion has its own budget of counted
work (``engine.budget``); one that exhausts it is an ERROR naming the budget.
The run's record is read and parsed before any assertion, outside every budget,
and no verdict depends on how long anything took: the wall-clock safety net
(``budget.TooSlow``) stops the whole command and is never made a verdict.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from referee.engine import budget
from referee.engine.checks.base import NOT_GRADED_MESSAGE, Context
from referee.engine.checks.folding import kept_in
from referee.engine.checks.trust import demote_notes_only
from referee.engine.compile import CompiledAssertion, CompiledEval
from referee.engine.caps import capped
from referee.engine.verdict import Outcome, Verdict

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run


def evaluate(ev: CompiledEval, run: Run, limits: budget.Limits = budget.Limits()) -> list[Verdict]:
    """Verdicts for ``run``, in the order of ``ev.assertions``.

    Lets, selections and the run's records are evaluated lazily and at most
    once for the run, shared by every assertion of the eval; the next run
    starts from a fresh context.
    """
    run.transcript  # read and parsed here, outside every assertion's budget (size-capped)
    ctx = Context(run, dict(ev.lets))
    return [evaluate_assertion(assertion, ctx, limits) for assertion in ev.assertions]


def evaluate_assertion(assertion: CompiledAssertion, ctx: Context,
                       limits: budget.Limits = budget.Limits()) -> Verdict:
    """One assertion's verdict, with the trust rule and the vacuous flag settled."""
    if assertion.check is None:
        return Verdict(Outcome.NOT_GRADED, NOT_GRADED_MESSAGE)
    try:
        with budget.active(limits), kept_in(ctx.cache):  # a long text's forms, made once per run
            verdict = assertion.check.evaluate(ctx)
    except budget.BudgetExceeded as exc:
        return Verdict(Outcome.ERROR, str(exc))
    except budget.TooSlow:
        raise  # the safety net stops the command; it is never a verdict
    except RecursionError:
        return Verdict(Outcome.ERROR, "error: the data is nested too deeply to evaluate")
    except Exception as exc:  # a defect must cost one verdict, not the whole run
        return Verdict(Outcome.ERROR, f"error while evaluating: {type(exc).__name__}: {exc}")
    verdict = demote_notes_only(verdict, assertion.evidence_source).within(capped)
    if verdict.vacuous and verdict.outcome is not Outcome.PASS:
        # Inside a check `vacuous` also marks "nothing to examine" on a FAIL, so a
        # `not` above can say its PASS is vacuous; a final FAIL is just a FAIL.
        verdict = replace(verdict, vacuous=False)
    return verdict
