"""The fields of a metrics.json a report copies: held to their shapes, and its counts
of calls held against the run's tool-call record.

grading.json's ``execution_metrics`` reach skill-creator's viewer and referee's
aggregate as the run's own counts. A field of the wrong shape (``total_steps: -3``,
``files_created: "x"``, ``tool_calls: {"Bash": -1}``) is no count: it is left out,
and ``not_counted`` says why (``misshapen``). And skill-creator's executor writes its
metrics.json itself: where the run's tool-call record, read in full, holds other
counts of calls than the file says, the record is the evidence and the file only the
agent's word (``record_clash``), as a check reading such a count is an ERROR
(``engine.checks.self_counted``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

from referee.engine.caps import cut
from referee.engine.facts.metrics_unread import calls_unread
from referee.engine.run import status_words
from referee.engine.run.agents import MAIN
from referee.engine.run.reading import SKILL_CREATOR_LOG

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

# Beyond 2^53 a JSON number is no longer exact, and skill-creator's aggregator cannot
# average or square it (an integer of hundreds of digits overflows a float): referee
# aggregate leaves such a figure out, and a negative one, so grading.json does too.
LARGEST_FIGURE = 2 ** 53

# metrics.json's fields (formats.md 1.2, and the import's subagent_tool_calls) by shape.
FIGURES = ("total_tool_calls", "total_steps", "errors_encountered", "output_chars", "transcript_chars")
PER_TOOL = ("tool_calls", "subagent_tool_calls")
FILE_LISTS = ("files_created",)
_SHOWN = 40  # characters of a wrong value named in a reason


def not_a_figure(value: Any) -> str | None:
    """Why ``value`` is no figure of a run; None when it is one (0 to 2^53)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return "not a number"
    if value < 0:
        return "below 0"
    if value > LARGEST_FIGURE:
        return f"above {LARGEST_FIGURE:,} (2^53, where JSON numbers stop being exact)"
    return None


def misshapen(copied: dict[str, Any]) -> list[dict[str, Any]]:
    """The group of ``not_counted`` for the fields of ``copied`` (a metrics.json as
    copied) that are not of their shape; empty when each is."""
    wrong = [(name, why) for name in copied if (why := _why_not(name, copied[name])) is not None]
    if not wrong:
        return []
    reason = "; ".join(f"{name} is {why}" for name, why in wrong)
    return [{"fields": [name for name, _ in wrong], "reason": f"metrics.json gives no count here: {reason}"}]


def _why_not(name: str, value: Any) -> str | None:
    shown = cut(repr(value), _SHOWN)
    if name in FIGURES:
        why = not_a_figure(value)
        return None if why is None else f"{shown}, {why}"
    if name in PER_TOOL:
        if not isinstance(value, dict):
            return f"{shown}, not counts by tool"
        bad = next(((tool, not_a_figure(count)) for tool, count in value.items() if not_a_figure(count)), None)
        return None if bad is None else f"{cut(repr(bad[0]), _SHOWN)}: {value[bad[0]]!r} in it, {bad[1]}"
    if name in FILE_LISTS and not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
        return f"{shown}, not a list of file names"
    return None


def record_clash(run: Run, copied: dict[str, Any]) -> str | None:
    """How ``copied``'s counts of calls differ from what the run's tool-call record
    holds, in words; None when they agree, or when nothing can hold them to account:
    a metrics.json an import wrote from the record, a run without a record, or one
    read only in part (``calls_unread``: then a higher count may be the true one).
    ``errors_encountered`` may count errors besides failed calls: only fewer than the
    record's failed calls contradicts it."""
    source_map = run.source_map[0]
    if source_map is not None and source_map.format != SKILL_CREATOR_LOG:
        return None
    if calls_unread(run) is not None:
        return None
    calls = [call for call in run.every_call.calls if call.agent == MAIN]
    total, failed = copied.get("total_tool_calls"), copied.get("errors_encountered")
    if _whole(total) and total != len(calls):
        return f"total_tool_calls is {total}, but the run's tool-call record holds {len(calls)}"
    held_failed = sum(1 for call in calls if status_words.meaning(call.status or "") == "error")
    if _whole(failed) and failed < held_failed:
        return f"errors_encountered is {failed}, but the run's tool-call record holds {held_failed} failed call(s)"
    return _tool_clash(copied.get("tool_calls"), calls)


def _tool_clash(said: Any, calls: list) -> str | None:
    if not isinstance(said, dict):
        return None
    held: dict[str, int] = {}
    for call in calls:
        if call.tool is not None:
            held[call.tool] = held.get(call.tool, 0) + 1
    for tool in sorted(set(said) | set(held)):
        count = said.get(tool, 0)
        if _whole(count) and count != held.get(tool, 0):
            return (f"tool_calls.{cut(tool, _SHOWN)} is {count}, but the run's tool-call record holds "
                    f"{held.get(tool, 0)} such call(s)")
    return None


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
