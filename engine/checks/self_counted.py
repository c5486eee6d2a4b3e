"""A metrics.json the agent wrote, held against the run's tool-call record.

skill-creator's executor writes ``outputs/metrics.json`` itself: its counts of calls
(``total_tool_calls``, ``tool_calls`` by tool, ``errors_encountered``) are the agent's
own words, and agents miscount (a real run narrated 9 calls and counted 10). Where the
run has a tool-call record read in full, a count it contradicts cannot be taken for
the run's: ``metrics.errors_encountered == 0`` passed over a record holding a failed
call. A check reading such a count is an ERROR naming both numbers. A count the
import wrote is the record's own (``counted``), and a run with no record has nothing
to hold the count against: both are read as they are.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from referee.engine.checks.base import Context
from referee.engine.run import status_words
from referee.engine.run.agents import MAIN
from referee.engine.run.reading import SKILL_CREATOR_LOG
from referee.engine.values import EvalError

# The fields that count calls, read whole or by tool.
_FIELDS = ("total_tool_calls", "tool_calls", "errors_encountered")


def agrees_with_record(ctx: Context, metrics: Any, reads: tuple[str | int, ...]) -> None:
    """EvalError when the part of ``metrics`` that ``reads`` names (``()``: the whole
    file) holds a count of calls the run's tool-call record contradicts."""
    source_map, _ = ctx.run.source_map
    if source_map is not None and source_map.format != SKILL_CREATOR_LOG:
        return  # the import's counts, made from the record
    if not isinstance(metrics, dict) or ctx.run.no_record is not None or ctx.run.every_call.incomplete():
        return
    field = reads[0] if reads else None
    fields = _FIELDS if field is None else (field,) if field in _FIELDS else ()
    for name in fields:
        said = metrics.get(name)
        told = ctx.once(("record counts", name), partial(_record_counts, ctx, str(name)))
        clash = _clash(str(name), said, told, reads[1] if len(reads) > 1 and name == "tool_calls" else None)
        if clash is not None:
            raise EvalError(f"metrics.json says {clash}: its counts are the agent's own, which the record "
                            "contradicts, so a check on them cannot be decided (count the calls: count(calls ...))")


def _record_counts(ctx: Context, name: str) -> Any:
    """What the record says of ``name``: the main agent's calls, by tool, or failed."""
    calls = [call for call in ctx.run.every_call.calls if call.agent == MAIN]
    if name == "total_tool_calls":
        return len(calls)
    if name == "errors_encountered":
        return sum(1 for call in calls if status_words.meaning(call.status or "") == "error")
    by_tool: dict[str, int] = {}
    for call in calls:
        if call.tool is not None:
            by_tool[call.tool] = by_tool.get(call.tool, 0) + 1
    return by_tool


def _clash(name: str, said: Any, told: Any, tool: str | int | None) -> str | None:
    """How the count said and the record's differ, in words; None when they agree (or
    the count is no whole number). ``errors_encountered`` may count errors besides
    failed calls: only fewer than the record's failed calls contradicts it."""
    if name == "tool_calls":
        if not isinstance(said, dict):
            return None
        tools = [tool] if isinstance(tool, str) else sorted(set(said) | set(told))
        for one in tools:
            count, held = said.get(one, 0), told.get(one, 0)
            if _whole(count) and count != held:
                return f"tool_calls.{one} is {count}, but the run's tool-call record holds {held} such call(s)"
        return None
    if not _whole(said):
        return None
    if name == "errors_encountered":
        return None if said >= told else (f"errors_encountered is {said}, but the run's tool-call record holds "
                                          f"{told} failed call(s)")
    return None if said == told else f"total_tool_calls is {said}, but the run's tool-call record holds {told}"


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
