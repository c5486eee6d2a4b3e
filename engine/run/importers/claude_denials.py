"""The calls a stream-json run's result records list as refused by the harness
(``permission_denials``): each is a call of the run, its answer the refusal (an
error). One whose answer read says it succeeded, or one no record read holds, leaves
what a check of the run's calls reads unknown, never a success or an absence.
"""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.claude_stream import is_stream_record
from referee.engine.run.importers.record import Call, Entry, call_at
from referee.engine.run.model import Problem

if TYPE_CHECKING:
    from referee.engine.run.importers.claude_records import Reader


def refused_succeeded(name: str, values: list, readers: list[Reader], problems: list[Problem]) -> None:
    """A call the harness refused never ran: its answer is the refusal, an error. One
    whose answer read says it succeeded contradicts the result record that lists it
    (``permission_denials``), and neither says which is true, so its status is unknown
    (a check on it is an ERROR), never a success."""
    refused = {denial["tool_use_id"]: line for line, denial in _denials(values)
               if isinstance(denial, dict) and isinstance(denial.get("tool_use_id"), str)}
    for reader in readers:
        for call_id, positions in reader.calls.items():
            for position in positions if call_id in refused else ():
                call = call_at(reader.entries, position)
                if call.status != "success":
                    continue
                reader.entries[position] = replace(call, unread=call.unread | {"status"})
                problems.append(Problem("status-unknown", name, f"the result record's permission_denials says the "
                                        f"harness refused call {call_id!r}, whose answer says it succeeded: its "
                                        "status is unknown", refused[call_id]))


def _denials(values: list):
    """``(line, denial)`` for each call a result record of the stream lists as refused."""
    for line, rec in values:
        if isinstance(rec, dict) and is_stream_record(rec) and rec.get("type") == "result":
            denials = rec.get("permission_denials")
            for denial in denials if isinstance(denials, list) else ():
                yield line, denial


def refused_unread(name: str, values: list, entries: list, problems: list[Problem]) -> None:
    """A result record lists the calls the harness refused (``permission_denials``, each
    naming its ``tool_use_id`` and ``tool_name``): the agent asked for each, so each is
    a call of the run, read from its ``tool_use`` with its answer (the refusal, an
    error). One that no record read holds (a line of the stream lost, a message not
    printed whole), or a list not read, leaves the run's calls unknown: a check that no
    such call was made would pass on a call the run holds."""
    calls = list(_calls(entries))
    ids = {call.call_id for call in calls}
    tools = {call.tool for call in calls}
    for line, rec in values:
        if not (isinstance(rec, dict) and is_stream_record(rec) and rec.get("type") == "result"):
            continue
        denials = rec.get("permission_denials")
        if denials is None or denials == []:
            continue
        unread = [denial for denial in (denials if isinstance(denials, list) else [denials])
                  if not _refused_read(denial, ids, tools)]
        if unread:
            problems.append(Problem(CALLS_MAY_BE_MISSING, name, f"the result record's permission_denials names "
                                    f"{len(unread)} refused call(s) that no record read holds: the agent asked for "
                                    "them, so the run's calls are incomplete", line))


def _refused_read(denial: Any, ids: set, tools: set) -> bool:
    """Whether a call the harness refused is among the calls read: by its id, or by its
    tool when the denial names no id."""
    if not isinstance(denial, dict):
        return False
    if isinstance(denial.get("tool_use_id"), str):
        return denial["tool_use_id"] in ids
    return isinstance(denial.get("tool_name"), str) and denial["tool_name"] in tools


def _calls(entries: Iterable[Entry]) -> Iterator[Call]:
    """Every call of ``entries``, a subagent's too."""
    for entry in entries:
        if isinstance(entry, Call):
            yield entry
            if entry.subagent is not None:
                yield from _calls(entry.subagent.entries)
