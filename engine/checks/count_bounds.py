"""``count(S) <op> n`` over a selection that cannot be made whole: a filter cannot
decide on some element (a call whose status is not told). The count is then one of
the whole numbers from the elements kept for certain to those plus the undecided
ones, and the comparison is decided when it holds for all of them, or for none:
'count(calls with status error) >= 1' passes beside a call read as failed whatever
the others are, and 'count(calls with status error) <= 3' fails with four failed.

A source read in part (``run_sources.PartlyRead``: a transcript cut inside a record)
may go on with any number of elements: the count is then at least the elements kept
for certain of those read, and 'count(calls) <= 3' fails with five calls read.
"""

from __future__ import annotations

import math

from referee.engine.checks.base import Context, Expr, Polarity, decided, evidence_of
from referee.engine.checks.compare import ORDER_OPS
from referee.engine.checks.exprs import FuncExpr
from referee.engine.checks.functions import FUNCTIONS
from referee.engine.checks.sources import Select
from referee.engine.values import EvalError, Missing, is_number, render
from referee.engine.verdict import Verdict


def bounded_count(ctx: Context, left: Expr, op: str, right: Expr, polarity: Polarity, want: str,
                  undecided: EvalError) -> Verdict:
    """The verdict of ``left op right`` when ``left`` counts a selection that raised
    ``undecided`` and the comparison holds for every count it may be, or for none;
    else ``undecided`` is raised again."""
    if not (isinstance(left, FuncExpr) and left.fn is FUNCTIONS["count"] and isinstance(left.arg, Select)):
        raise undecided
    limit = right.eval(ctx)
    if isinstance(limit, Missing) or not is_number(limit.value) or op not in (*ORDER_OPS, "==", "!="):
        raise undecided
    kept = left.arg.partly_kept(ctx)
    sure, open_ = kept.sure, kept.open
    low, n = len(sure), limit.value
    high = math.inf if kept.unread is not None else low + open_
    if op in ORDER_OPS:
        holds = [ORDER_OPS[op](low, n), ORDER_OPS[op](high, n)]
    else:  # more than one count is possible: '==' holds for none of them, or '!=' for all, or neither is known
        outside = not (low <= n <= high)
        holds = [op == "!=", op == "!="] if outside else [True, False]
    if holds[0] != holds[1]:
        raise undecided
    fact = f"count({left.arg.desc}) is {low} to {high}, {open_} of them undecided ({undecided})" \
        if kept.unread is None else f"count({left.arg.desc}) is at least {low} ({undecided})"
    return decided(holds[0], polarity.message(holds[0], fact, want.format(render(n))), evidence_of(*sure))
