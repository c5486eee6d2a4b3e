"""Which computed execution metrics the run's files cannot give, and why.

grading.json's ``execution_metrics``, when computed from the run (no usable
metrics.json), are counts that consumers sum and average as the run's own:
referee aggregate and skill-creator's aggregator read ``total_tool_calls`` and
``errors_encountered``. A count over a record read only in part would be summed as
if whole, so where the part that was not read may hold what it counts, the count
is left out and ``not_counted`` says which fields and why, as a check over the
same record is an ERROR (``engine.checks.run_sources``). ``calls_unread`` is also
why a claim no call bears out cannot be called false (``engine.facts.claims``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.run import status_words
from referee.engine.run.agents import CALLS_MAY_BE_MISSING, MAIN
from referee.engine.run.reading import SKILL_CREATOR_LOG

if TYPE_CHECKING:
    from referee.engine.run.model import ToolCall
    from referee.engine.run.workspace import Run

# The fields counted from the run's tool-call record, and from its outputs/ listing.
RECORD_COUNTS = ("tool_calls", "total_tool_calls", "total_steps", "errors_encountered")
OUTPUT_COUNTS = ("files_created", "output_chars")
NOT_COUNTED = "not_counted"  # the member of execution_metrics that says what was left out
_SHOWN_CALLS = 3  # calls of unknown status named in the reason; the rest counted


def not_counted(run: Run) -> list[dict[str, Any]]:
    """``[{"fields": [...], "reason": "..."}]``: the computed metrics the run's files
    cannot give whole, each group with its reason; empty when every count stands."""
    groups = []
    calls = calls_unread(run)
    if calls is not None:
        groups.append({"fields": list(RECORD_COUNTS), "reason": calls})
    else:
        statuses = statuses_unknown(run.transcript.calls)
        if statuses is not None:
            groups.append({"fields": ["errors_encountered"], "reason": statuses})
    unlisted = run.unlisted_outputs()
    if unlisted:
        groups.append({"fields": list(OUTPUT_COUNTS), "reason": f"the outputs cannot all be listed: {unlisted[0]}"})
    return groups


# The counts an import writes into metrics.json, each with the call field it goes by
# (None: every call) and whether it counts the main agent's calls, else the subagents'.
IMPORT_COUNTS: dict[str, tuple[str | None, bool]] = {
    "tool_calls": ("tool", True), "subagent_tool_calls": ("tool", False), "errors_encountered": ("status", True),
    "total_tool_calls": (None, True), "total_steps": (None, True),
}


def import_not_counted(run: Run, copied: dict[str, Any]) -> list[dict[str, Any]]:
    """The groups of ``not_counted`` for the metrics.json an import wrote (``copied``):
    its counts are of the calls the import read, so where a line that may hold a call
    was not read every count of calls is a guess, and where a call is unsure of its
    tool or status the counts by that field are; as a check reading them is an ERROR
    (``engine.checks.counted``). A skill-creator log's metrics.json is the executor's
    own file, copied as it is."""
    source_map = run.source_map[0]
    if source_map is None or source_map.format == SKILL_CREATOR_LOG:
        return []
    present = [name for name in IMPORT_COUNTS if name in copied]
    missing = next((p for p in source_map.problems if p.code == CALLS_MAY_BE_MISSING), None)
    if missing is not None:
        reason = f"the import could not read every call ({missing.place}: {missing.message})"
        return [{"fields": present, "reason": reason}] if present else []
    groups = []
    for name in present:
        by, main = IMPORT_COUNTS[name]
        call = None if by is None else next(
            (c for c in run.every_call.calls if by in c.unsure and (c.agent == MAIN) == main), None)
        if call is not None:
            groups.append({"fields": [name], "reason": f"the import could not read the {by} of {_named(call)}"})
    return groups


def calls_unread(run: Run) -> str | None:
    """Why the run's tool calls cannot be counted (None when they can): for the
    reasons that make a check over ``calls`` an ERROR. Records the grammar did not
    trust are left out of the counts, so they may hide calls too."""
    log = getattr(run, "unimported_log", None)  # a run read in memory has no log beside it
    if log is not None:
        return f"{log.path} {log.message}"
    unreadable = run.transcript.unreadable
    if unreadable is not None:
        return f"{unreadable.path} cannot be used: {unreadable.message}"
    if run.no_record is not None:
        return run.no_record
    incomplete = run.every_call.incomplete()
    if incomplete is not None:
        return incomplete
    suspect = run.transcript.suspect_calls
    if suspect:
        return (f"{len(suspect)} tool-call record(s) broke the record grammar and are not trusted, the first "
                f"at {suspect[0].location} (see the run's warnings)")
    return None


def statuses_unknown(calls: tuple[ToolCall, ...]) -> str | None:
    """Why the failed calls among ``calls`` cannot be counted: some call's status
    says neither that it failed nor that it succeeded (``status_words``), or is not
    known for certain; None when each says."""
    unknown = [call for call in calls if _status_unknown(call)]
    if not unknown:
        return None
    shown = "; ".join(_named(call) for call in unknown[:_SHOWN_CALLS])
    more = f"; and {len(unknown) - _SHOWN_CALLS} more" if len(unknown) > _SHOWN_CALLS else ""
    return (f"whether {len(unknown)} call(s) failed cannot be told ({shown}{more}): "
            "their status says neither success nor error")


def _status_unknown(call: ToolCall) -> bool:
    return "status" in call.unsure or call.status is None or status_words.meaning(call.status) is None


def _named(call: ToolCall) -> str:
    step = f"step {call.step} " if call.step is not None else ""
    status = "no Status line" if call.status is None else f"status {call.status!r}"
    line = call.status_line if call.status_line is not None else call.location.line
    return f"{step}{call.tool or '(unnamed)'}, {status} at {call.location.file}:{line}"
