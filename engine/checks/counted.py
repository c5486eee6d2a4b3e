"""Whether the counts an import wrote into metrics.json can be read, field by field.

``referee import`` writes ``outputs/metrics.json`` from the calls it read
(``engine.run.importers.writer``): ``tool_calls`` counts the main agent's calls by
tool, ``subagent_tool_calls`` its subagents' by tool, ``errors_encountered`` the main
agent's by status, ``total_tool_calls`` and ``total_steps`` the main agent's whatever
their tool or status; ``output_chars`` and ``transcript_chars`` count text, not calls.
A count over a call the import could not read in full is a guess, and a check that
reads it is an ERROR: ``"Bash" not in keys(metrics.tool_calls)`` would pass on the
very call ``no calls to "Bash"`` cannot decide. A count that does not depend on the
field the call is unsure of is read: a Bash call whose answer only says it runs in
the background is unsure of its status, not of its tool, so ``metrics.tool_calls.Read``
and ``metrics.total_tool_calls`` stand. A skill-creator log's metrics.json is the
executor's own file, not the import's counts: it is read as it is.
"""

from __future__ import annotations

from referee.engine.checks.access import call_val, unsure_error
from referee.engine.checks.base import Context, error_message
from referee.engine.run.agents import CALLS_MAY_BE_MISSING, MAIN
from referee.engine.run.reading import SKILL_CREATOR_LOG
from referee.engine.values import EvalError

# field -> (the call field it counts by, or None for every call; whether it counts
# the main agent's calls, else the subagents'). Fields not here count no calls.
COUNTED_BY: dict[str, tuple[str | None, bool]] = {
    "tool_calls": ("tool", True),
    "subagent_tool_calls": ("tool", False),
    "errors_encountered": ("status", True),
    "total_tool_calls": (None, True),
    "total_steps": (None, True),
}
# What metrics.json read whole (``metrics``, ``jsonpath(metrics, ...)``) depends on.
WHOLE = ("tool", "status")


def counted_in_full(ctx: Context, reads: tuple[str | int, ...]) -> None:
    """EvalError when the part of metrics.json that ``reads`` names (``("tool_calls",
    "Read")`` for ``metrics.tool_calls.Read``; ``()`` for the whole file) holds a count
    the import made of calls it could not read in full: a line that may hold a call
    and was not read, or a call unsure of the field the count goes by."""
    source_map, _ = ctx.run.source_map
    if source_map is None or source_map.format == SKILL_CREATOR_LOG:
        return
    field = reads[0] if reads else None
    if field is not None and field not in COUNTED_BY:
        return
    missing = next((p for p in source_map.problems if p.code == CALLS_MAY_BE_MISSING), None)
    if missing is not None:
        raise EvalError(f"metrics.json counts the calls the import read, and the run's calls may be "
                        f"incomplete ({missing.place}: {missing.message})")
    by: tuple[str, ...] = WHOLE
    main: bool | None = None
    if field is not None:
        by_field, main = COUNTED_BY[str(field)]
        if by_field is None:
            return
        by = (by_field,)
    call = ctx.once(("metrics unsure", by, main), lambda: _first_unsure(ctx, by, main))
    if call is not None:
        fields = " and ".join(sorted(call.unsure & set(by)))
        what = "metrics.json" if field is None else f"metrics.{field}"
        raise EvalError(f"{what} counts the calls the import read, by {' and '.join(by)}: "
                        f"{error_message(ctx, unsure_error(call_val(call), fields))}")


def _first_unsure(ctx: Context, by: tuple[str, ...], main: bool | None):
    """The first call (of the main agent, of a subagent, or of either when ``main`` is
    None) unsure of one of the fields ``by``; None when there is none."""
    for call in ctx.run.every_call.calls:
        if (main is None or (call.agent == MAIN) == main) and call.unsure.intersection(by):
            return call
    return None
