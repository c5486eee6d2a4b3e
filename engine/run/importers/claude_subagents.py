"""The subagents of a Claude Code session: which one a sidechain record is of, each
read as an agent of its own, and each nested under the ``Task`` call that started it,
``MAX_NESTING`` deep at most. What the session shows of their work and does not hold
makes the run's calls incomplete: a subagent that made calls and that no call started,
a ``Task`` that ran with no transcript found or whose answer counts more calls than its
subagent's transcript holds, progress of calls a transcript lacks, a ``Workflow`` that
ran (its agents' transcripts are not read). ``claude_code`` puts the session together."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers.claude_at_work import at_work
from referee.engine.run.importers.claude_format import FORMAT
from referee.engine.run.importers.claude_records import Reader
from referee.engine.run.importers.claude_results import refused
from referee.engine.run.importers.record import Call, Conversation, Origin, Text
from referee.engine.run.model import Problem

SUBAGENT_TOOLS = frozenset({"Task", "Agent"})
# Calls that start agents whose transcripts an import does not read (a Workflow's, kept
# under <session>/subagents/workflows/wf_<run>/): their calls are unknown once it ran.
UNREAD_AGENT_TOOLS = frozenset({"Workflow"})
MAX_NESTING = 32  # subagents started by subagents, followed this deep (names and walks stay bounded)


def side_key(rec: dict, line: int, roots: dict[str, str]) -> str:
    """Which subagent a sidechain record belongs to: its agentId, else the root of its chain."""
    if isinstance(rec.get("agentId"), str):
        key = rec["agentId"]
    else:
        parent = rec.get("parentUuid")
        key = roots.get(parent) if isinstance(parent, str) else None
        key = key or (rec["uuid"] if isinstance(rec.get("uuid"), str) else f"line-{line}")
    if isinstance(rec.get("uuid"), str):
        roots[rec["uuid"]] = key
    return key


def read_agent(records: list[tuple[str, int, dict]], problems: list[Problem],
               unread: Sequence[tuple[str, int]] = ()) -> tuple[Reader, Origin]:
    """A subagent read from its records (``(source, line, record)``, in order), and
    where the first of them lies. ``unread``: the lines of its files that are no record
    (``(source, line)``, in order), each told to the reader where it stands: the answer
    to a call open there may be in it (``Reader.may_answer``)."""
    reader = Reader(problems)
    waiting: dict[str, deque[int]] = {}
    for source, line in unread:
        waiting.setdefault(source, deque()).append(line)
    for source, line, rec in records:
        lines = waiting.get(source)
        while lines and lines[0] < line:
            reader.may_answer(Origin(source, lines[0]), f"line {lines.popleft()}")
        reader.record(source, line, rec)
    for source, lines in waiting.items():
        for line in lines:
            reader.may_answer(Origin(source, line), f"line {line}")
    reader.ended()
    _unanswered_prompt(reader, problems)
    source, line, _ = records[0] if records else ("", 0, None)
    return reader, Origin(source, line)


def _unanswered_prompt(reader: Reader, problems: list[Problem]) -> None:
    """A subagent's transcript that ends with a request (its prompt) no message of the
    subagent answers does not hold its work: an Agent call launched in the background
    returns at once, so a session copied while the subagent works holds no more of it,
    and a transcript cut short ends so too. Its calls are unknown (a subagent that was
    interrupted asks nothing more: ``claude_requests.interrupted``, even before it answered,
    as Claude Code interrupts its prompt-suggestion agent when the user types, nor one
    whose turn an API error Claude Code wrote in its place ended, as for the main agent)."""
    if reader.asked is None or reader.asked[0] in (reader.interrupted_at, reader.ended_in_error):
        return
    line, _ = reader.asked
    # the request is the last one read: the last text entry at its line
    source = next((e.origin.source for e in reversed(reader.entries) if isinstance(e, Text) and e.origin.line == line),
                  "")
    problems.append(Problem(CALLS_MAY_BE_MISSING, source, "this subagent's transcript ends with this request, which "
                            "no message of the subagent answers (it was still at work, or the transcript is cut "
                            "short): its calls are unknown", line))


def _prompt_of(reader: Reader) -> str | None:
    return next((e.text for e in reader.entries if isinstance(e, Text) and e.kind == R.EVAL_PROMPT), None)


def attach(reader: Reader, subagents: dict, problems: list[Problem]) -> list:
    """The main entries, each Task call holding the subagent it started (a subagent's
    own Task calls holding theirs, ``MAX_NESTING`` deep at most)."""
    left = dict(subagents)
    entries = _nested(reader, left, problems, 1)
    held = {entry.call_id for entry in _every_call(entries) if entry.call_id is not None}
    for key, (sub, origin) in left.items():
        message = f"subagent {key!r} started by no Task call of this session; its {len(sub.entries)} entries are left out"
        problems.append(Problem("unattached-subagent", origin.source, message, origin.line))
        # calls that were made but have no place in the run (not the session's own
        # calls replayed, as a compaction's transcript replays them): the calls are unknown
        calls = sum(isinstance(entry, Call) and (entry.call_id is None or entry.call_id not in held)
                    for entry in sub.entries)
        if calls:
            message = (f"subagent {key!r} made {calls} tool calls that no Task call of this session started: "
                       "the run's calls are incomplete without them")
            problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, message, origin.line))
    progress = reader.progress + [found for sub, _ in subagents.values() for found in sub.progress]
    _unheld_work(entries, progress, held, problems)
    return entries


def _unheld_work(entries: list, progress: list, held: set, problems: list[Problem]) -> None:
    """Subagent work the session shows but holds no transcript of: a Task that ran
    with none, a Workflow that ran (``UNREAD_AGENT_TOOLS``), progress of a subagent
    no Task started, and calls a subagent's progress shows that its transcript (cut
    short) does not hold (``held``: the ids of every call read)."""
    shown = {task for task, _, _ in progress}  # the Tasks whose progress shows a call
    tasks = [entry for entry in _every_call(entries) if entry.tool in SUBAGENT_TOOLS]
    for entry in tasks:  # a subagent that ran, whose calls this session does not hold
        if entry.subagent is None and (_may_have_run(entry) or entry.call_id in shown):
            message = (f"the subagent this {entry.tool} call started has no transcript here (its agent-*.jsonl "
                       "was not found beside the session): its calls are unknown")
            problems.append(Problem(CALLS_MAY_BE_MISSING, entry.origin.source, message, entry.origin.line))
    for entry in _every_call(entries):
        if entry.tool in UNREAD_AGENT_TOOLS and _may_have_run(entry):
            message = (f"the agents this {entry.tool} call started have transcripts an import does not read: "
                       "their calls are unknown")
            problems.append(Problem(CALLS_MAY_BE_MISSING, entry.origin.source, message, entry.origin.line))
    started = {entry.call_id: entry for entry in tasks}
    for task, origin, ids in progress:
        if task not in started and (task is not None or not tasks):
            message = "this progress record shows a call of a subagent no Task call of this session started"
            problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, message, origin.line))
        elif task in started and started[task].subagent is not None and (unheld := ids - held):
            message = (f"this progress record shows {len(unheld)} call(s) the transcript of the subagent "
                       f"its {started[task].tool} call started does not hold: that transcript is cut short, and "
                       "the run's calls are incomplete")
            problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, message, origin.line))


def _may_have_run(task: Call) -> bool:
    """Whether the subagent of a Task call may have run: unless the call was refused
    before it ran (its answer a ``<tool_use_error>``: a bad input, an unknown agent
    type), a failed Task may have failed after its subagent worked (the user
    interrupted it, the subagent broke off), so it ran as surely as a Task that
    succeeded or never got its answer."""
    return task.status != "error" or not refused(task.result)


def _nested(reader: Reader, left: dict, problems: list[Problem], depth: int) -> list:
    """``reader``'s entries, each of its Task calls holding the subagent (from ``left``,
    which it empties as it goes) that the call started, nested in turn; ``depth`` is
    the level of the subagents ``reader`` starts (1: the session's own)."""
    entries = list(reader.entries)
    for position, call, key, sub, origin in _started(reader, left):
        if depth > MAX_NESTING:  # deeper than a run is written: left out, so the calls are unknown
            dropped = _drain(sub, left)
            message = (f"subagent {key!r} is nested {depth} subagents deep, deeper than the {MAX_NESTING} "
                       f"an import follows: its calls and those of the {dropped} subagents it started are left out")
            problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, message, origin.line))
            work = Conversation(FORMAT, (origin.source,), (), ())
        else:
            work = Conversation(FORMAT, (origin.source,), tuple(_nested(sub, left, problems, depth + 1)),
                                tuple(sub.last_text))
            _fewer_than_told(call, reader.results.get(position), sub, problems)
            if key == call.call_id:
                _streamed_and_filed(call, reader.results.get(position), sub, left, problems)
            else:  # a transcript of its own: a stream leaves a subagent's words out, a transcript does not
                _left_at_work(call, reader.results.get(position), sub, problems)
        entries[position] = replace(call, subagent=work)
    return entries


def _streamed_and_filed(task: Call, structured: dict | None, sub: Reader, left: dict,
                        problems: list[Problem]) -> None:
    """A subagent whose messages a stream holds (grouped by its Task call's id) may also
    have its ``agent-*.jsonl`` file beside the stream (grouped by the ``agentId`` the
    call's answer names): the same work, taken from the stream. A call the file holds
    that the stream does not (the stream left it out, or was cut) is not read, so the
    run's calls are incomplete."""
    key = structured.get("agentId") if structured is not None else None
    if not isinstance(key, str) or key not in left:
        return
    filed, origin = left.pop(key)
    held = {entry.call_id for entry in sub.entries if isinstance(entry, Call)}
    if any(isinstance(entry, Call) and entry.call_id not in held for entry in filed.entries):
        message = (f"the file of subagent {key!r} holds calls its messages in the stream do not: those calls "
                   "are not read, so the run's calls are incomplete")
        problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, message, origin.line))


def _left_at_work(task: Call, structured: dict | None, sub: Reader, problems: list[Problem]) -> None:
    """A subagent's transcript that ends with the subagent at work (``claude_at_work``:
    its last step a call, answered or not, or its prompt taken with thinking alone) does
    not hold what it did next, since a call's answer goes back to the subagent, and
    thinking leads to its next step: an Agent call run in the background returns at once,
    so a session copied while its subagent works holds its transcript so far, and a
    transcript cut short ends so too. The calls after its last line are
    unknown, unless the subagent stopped there (its Task call failed: the user
    interrupted it) or the Task's answer counts its calls and the transcript holds them
    all, each answered (``_fewer_than_told`` says when it holds fewer): then only its
    last words, which its Task's answer gives, are not there."""
    found = at_work(sub)
    if found is None or task.status == "error" or _all_told(structured, sub):
        return
    where, at_call = found
    message = ("this subagent's transcript ends with the subagent at work: its last step is a call, whose answer "
               "goes back to the subagent, and no words of it follow (it was still at work, or the transcript is cut "
               "short), so its calls after this line are unknown" if at_call else
               "this subagent's transcript ends with the subagent at work on its prompt, before its first words or "
               "call (thinking alone, or a placeholder: it was still at work, or the transcript is cut short), so its "
               "calls after this line are unknown")
    problems.append(Problem(CALLS_MAY_BE_MISSING, where.source, message, where.line))


def _all_told(structured: dict | None, sub: Reader) -> bool:
    """Whether the Task's answer counts its subagent's calls (``totalToolUseCount``) and
    the subagent's transcript holds that many, each answered."""
    told = structured.get("totalToolUseCount") if structured is not None else None
    calls = [entry for entry in sub.entries if isinstance(entry, Call)]
    return (isinstance(told, int) and not isinstance(told, bool) and len(calls) >= told
            and all(call.result_origin is not None for call in calls))


def _fewer_than_told(task: Call, structured: dict | None, sub: Reader, problems: list[Problem]) -> None:
    """Claude Code's answer to a Task call counts the calls its subagent made
    (``totalToolUseCount``): a transcript holding fewer is cut short, or not the whole
    of that subagent's work, so the calls it lacks are unknown (the run's calls are
    incomplete). Holding more (a subagent resumed by a later call) says nothing."""
    told = structured.get("totalToolUseCount") if structured is not None else None
    if not isinstance(told, int) or isinstance(told, bool):
        return
    held = sum(isinstance(entry, Call) for entry in sub.entries)
    if held < told:
        where = task.result_origin or task.origin
        message = (f"the answer to this {task.tool} call says its subagent made {told} calls, and the subagent's "
                   f"transcript holds {held}: it is cut short, so the run's calls are incomplete")
        problems.append(Problem(CALLS_MAY_BE_MISSING, where.source, message, where.line))


def _started(reader: Reader, left: dict) -> Iterator[tuple[int, Call, str, Reader, Origin]]:
    """``(position, call, key, subagent, its origin)`` of each of ``reader``'s Task
    calls whose subagent is in ``left``, popped from it as each call is reached."""
    for position, entry in enumerate(reader.entries):
        if isinstance(entry, Call) and entry.tool in SUBAGENT_TOOLS:
            # a stream's subagent is grouped by the id of its Task call; a session's by its agentId
            key = entry.call_id if entry.call_id in left else _agent_key(reader.results.get(position), entry.args, left)
            if key is not None:
                yield (position, entry, key, *left.pop(key))


def _drain(sub: Reader, left: dict) -> int:
    """Pops from ``left`` every subagent ``sub`` started, theirs too (without recursion:
    the chain may be as long as the files given); how many."""
    pending, count = [sub], 0
    while pending:
        for _, _, _, found, _ in _started(pending.pop(), left):
            pending.append(found)
            count += 1
    return count


def _every_call(entries: Sequence[Call | Text]) -> list[Call]:
    """The calls of ``entries`` and of every subagent nested in them, in order."""
    found: list[Call] = []
    for entry in entries:
        if isinstance(entry, Call):
            found.append(entry)
            if entry.subagent is not None:
                found.extend(_every_call(entry.subagent.entries))
    return found


def _agent_key(structured: dict | None, args: Any, left: dict) -> str | None:
    """The subagent a Task call started: the one its result names, else (a result
    that names none) the one whose first prompt is the call's."""
    if structured is not None and isinstance(structured.get("agentId"), str):
        return structured["agentId"] if structured["agentId"] in left else None
    prompt = args.get("prompt") if isinstance(args, dict) else None
    if isinstance(prompt, str):
        for key, (sub, _) in left.items():
            if _prompt_of(sub) == prompt:
                return key
    return None
