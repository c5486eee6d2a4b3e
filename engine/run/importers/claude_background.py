"""What a stream-json run tells of a subagent an Agent call ran in the background: its
messages are in the stream (marked by the call's id, ``parent_tool_use_id``), and Claude
Code tells the agent that it ended in a ``system`` record of subtype
``task_notification``, which names the call (``tool_use_id``) and counts the calls the
subagent made (``usage.tool_uses``). The call's own answer says only that it was
launched, so the notice alone says the subagent's work is over, and how much of it
there was; ``claude_code`` reads the messages themselves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.claude_at_work import at_work
from referee.engine.run.importers.record import Call
from referee.engine.run.model import Problem

if TYPE_CHECKING:
    from referee.engine.run.importers.claude_records import Reader

NOTICE = "task_notification"


def untold_work(name: str, values: list, subagents: dict[str, tuple[Reader, Any]], entries: list,
                problems: list[Problem]) -> None:
    """The calls of a stream's background subagents that the stream does not hold: a
    notice that counts more calls than the subagent's messages hold, or, with no notice
    that it ended, messages that end with the subagent at work (its last step a call:
    it went on after the stream's last line, whether or not a result record follows).
    Either leaves the run's calls unknown. ``subagents``: each subagent's reader, by
    the id of the call that started it (how a stream groups them)."""
    notices = dict(_notices(values))
    for call in _background(entries):
        sub = subagents.get(call.call_id) if call.call_id is not None else None
        if sub is None:
            continue  # no messages of it: ``claude_subagents`` says its calls are unknown
        reader = sub[0]
        if call.call_id in notices:
            _fewer_than_noticed(name, notices[call.call_id], reader, problems)
        else:
            _at_work_unnoticed(reader, problems)


def _fewer_than_noticed(name: str, notice: tuple[int, dict], reader: Reader, problems: list[Problem]) -> None:
    """A notice that counts more calls than the subagent's messages hold: the stream
    lost some (or printed them nowhere), so the run's calls are incomplete. Holding more
    says nothing (the notice may count a part)."""
    line, rec = notice
    usage = rec.get("usage")
    told = usage.get("tool_uses") if isinstance(usage, dict) else None
    if not isinstance(told, int) or isinstance(told, bool):
        return
    held = sum(isinstance(entry, Call) for entry in reader.entries)
    if held < told:
        problems.append(Problem(CALLS_MAY_BE_MISSING, name, f"this notice says the background subagent made {told} "
                                f"calls, and the stream holds {held} of its messages' calls: the others are not "
                                "read, so the run's calls are incomplete", line))


def _at_work_unnoticed(reader: Reader, problems: list[Problem]) -> None:
    """A background subagent whose messages end at a call, or at its prompt taken with
    thinking alone (``at_work``), with no notice that it ended: a call's answer goes
    back to the subagent, and thinking is a step towards its next, so it went on after them."""
    found = at_work(reader)
    if found is None:
        return
    where, at_call = found
    how = ("(its last step a call, no words after it)," if at_call else
           "on its prompt, before its first words or call (thinking alone, or a placeholder),")
    problems.append(Problem(CALLS_MAY_BE_MISSING, where.source, f"this background subagent's messages end with it at "
                            f"work {how} and no notice says it ended: its calls after this line are unknown",
                            where.line))


def _notices(values: list) -> Iterator[tuple[str, tuple[int, dict]]]:
    """``(call id, (line, record))`` of each notice of the stream that a background
    task ended naming the call that started it; the last one counts."""
    for line, rec in values:
        if isinstance(rec, dict) and rec.get("type") == "system" and rec.get("subtype") == NOTICE \
                and isinstance(rec.get("tool_use_id"), str):
            yield rec["tool_use_id"], (line, rec)


def _background(entries: list) -> Iterator[Call]:
    """Each call (a subagent's too) whose subagent ran on in the background: its answer
    leaves its status unknown (``claude_user``: a launch notice), so it says nothing of
    the subagent's end."""
    for entry in entries:
        if isinstance(entry, Call):
            if "status" in entry.unread and entry.subagent is not None:
                yield entry
            if entry.subagent is not None:
                yield from _background(list(entry.subagent.entries))
