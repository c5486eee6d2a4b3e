"""Claude Code session logs (``*.jsonl``): one JSON record per line.

What a Claude Code log is and how it is told, ``claude_format``'s; how a session's file
becomes records, ``claude_lines``'s; what the records of one agent mean,
``claude_records``'s; how stream-json is told and what its result records say of how
the run ended, ``claude_stream``'s; this module puts a session together:

- Subagent work (``isSidechain`` records, ``agent-*.jsonl`` files) is nested
  under the ``Task`` call that started it and kept out of the main agent's counts
  (``claude_subagents``, which says what makes the run's calls incomplete).
- The session's working directory (its first record's ``cwd``) is replaced by
  ``<cwd>`` everywhere; a folder the session moved into keeps its part below it
  (``<cwd>/web``), and home folders elsewhere become ``<home>`` (``writer``).
- The response is the last assistant text of the main agent, when no call came
  with it or after it (``Reader.reply``). A session log that ends with the agent at
  work (its last step a call, nothing after it that ends a turn) was cut short or
  stopped: its calls and its response are unknown (``_left_at_work``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import claude_background, claude_denials, claude_stream, tokens
from referee.engine.run.importers.claude_at_work import left_at_work, silent_turn
from referee.engine.run.importers.claude_format import FORMAT
from referee.engine.run.importers.claude_hooks import place_changed_later
from referee.engine.run.importers.claude_lines import session_records, skipped_lines
from referee.engine.run.importers.claude_records import Reader
from referee.engine.run.importers.claude_subagents import attach, read_agent, side_key
from referee.engine.run.importers.claude_unread import not_a_record
from referee.engine.run.importers.record import Call, Conversation, Origin, Text
from referee.engine.run.importers.source import CALL_WORDS, Source, json_lines
from referee.engine.run.importers.homes import WINDOWS_PATH
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem

CWD = "<cwd>"


class NothingAsked(ValueError):
    """A session log holding no request of the user and nothing of the agent: only
    Claude Code's records of commands the user ran, as the log ``/clear`` starts holds
    (its work is in the log before it). It gives no run, never an empty one whose
    negative checks pass."""


# --- a session: the main agent, its subagents, and the numbers ------------------------------


def read_session(main: Source, agents: tuple[Source, ...] = (), alone: bool = False) -> Conversation:
    """The conversation of a session file, with the subagent files that belong to it.
    ``alone``: the file is a subagent's (``agent-*.jsonl``) given without its session,
    whose sidechain records are then the work of the agent the run is of."""
    problems: list[Problem] = []
    values, found_main = session_records(main)
    stream, results = 0, []  # the first line of stream-json, its result records (one ends each turn)
    # where a turn with no result yet starts, and the session its last message names (an init record's may be
    # another: ``claude -p --resume`` has named a new one there)
    turn: tuple[int, Any] = (0, None)
    foreign: tuple[int, Any, Any] | None = None  # a result naming another session than the turn it ends
    problems.extend(found_main)
    reader = Reader(problems)
    cwds: dict[str, None] = {}  # in the order met: the first is the session's own
    groups: dict[str, list[tuple[str, int, dict]]] = {}
    roots: dict[str, str] = {}
    skipped = iter(skipped_lines(found_main))
    after = next(skipped, None)  # the next line not read, told to the reader where it stands
    for line, rec in values:
        while after is not None and after < line:
            reader.may_answer(Origin(main.name, after), f"line {after}")
            after = next(skipped, None)
        if not isinstance(rec, dict):
            not_a_record(main.name, line, rec, problems)
            reader.may_answer(Origin(main.name, line), f"line {line}")
            continue
        _note_cwd(rec, cwds)
        if claude_stream.is_stream_record(rec):
            stream = stream or line
            main_result = rec.get("type") == "result" and rec.get(claude_stream.PARENT_CALL) is None
            if foreign is not None and (main_result or claude_stream.opens_turn(rec)):
                claude_stream.interleaved(foreign, line)  # another run's result, and the stream goes on
            if main_result:
                results.append((line, rec))
                foreign = claude_stream.foreign_result(line, rec, turn)
                turn = (0, turn[1])
            elif claude_stream.opens_turn(rec):
                message = rec.get("type") in ("user", "assistant")
                if message:
                    claude_stream.same_session(line, rec, turn)
                turn = (turn[0] or line, rec["session_id"] if message else None)  # the first record of a turn
        elif stream and claude_stream.streams_turn(rec):
            turn = (turn[0] or line, turn[1])  # a message of the next turn under way
        if rec.get("isSidechain") is True and not alone:
            groups.setdefault(side_key(rec, line, roots), []).append((main.name, line, rec))
        elif isinstance(rec.get(claude_stream.PARENT_CALL), str):  # a subagent's message in a stream: its Task call's id
            groups.setdefault(rec[claude_stream.PARENT_CALL], []).append((main.name, line, rec))
        else:
            reader.record(main.name, line, rec)
    for line in ([after] if after is not None else []) + list(skipped):
        reader.may_answer(Origin(main.name, line), f"line {line}")
    _chained_elsewhere(main.name, values, reader, problems)
    reader.ended()
    unread: dict[str, list[tuple[str, int]]] = {}  # a subagent's key -> the lines of its files not read
    for agent in agents:
        held, found = json_lines(agent, CALL_WORDS)  # the session's own lines stay in ``values``
        problems.extend(found)
        records = [(agent.name, line, rec) for line, rec in held if isinstance(rec, dict)]
        for line, rec in held:
            if not isinstance(rec, dict):
                not_a_record(agent.name, line, rec, problems)
        for _, _, rec in records:
            _note_cwd(rec, cwds)
        key = next((r["agentId"] for _, _, r in records if isinstance(r.get("agentId"), str)),
                   agent.name.removeprefix("agent-").removesuffix(".jsonl"))
        groups.setdefault(key, []).extend(records)
        lost = set(skipped_lines(found)) | {line for line, rec in held if not isinstance(rec, dict)}
        unread.setdefault(key, []).extend((agent.name, line) for line in sorted(lost))
    subagents = {key: read_agent(records, problems, unread.get(key, [])) for key, records in sorted(groups.items())}
    place_changed_later([reader] + [sub for sub, _ in subagents.values()])
    if stream:
        claude_denials.refused_succeeded(main.name, values, [reader] + [sub for sub, _ in subagents.values()], problems)
    entries = attach(reader, subagents, problems)
    if stream:
        claude_denials.refused_unread(main.name, values, entries, problems)
        claude_background.untold_work(main.name, values, subagents, entries, problems)
    counted, snapshots = tokens.count([reader] + [sub for sub, _ in subagents.values()])
    if snapshots:
        problems.append(tokens.snapshot_problem(main.name, snapshots))
    if not stream and _asks_nothing(reader, subagents, problems):
        raise NothingAsked("holds no run: no request of the user and nothing of the agent, only what Claude Code "
                           "recorded (commands the user ran: the log /clear starts holds them, the work is in the "
                           "log before it)")
    end = results[-1] if results else None
    unfinished = (claude_stream.unfinished(main.name, stream, results, turn, values, problems)
                  or claude_stream.unanswered(main.name, reader, results, problems)
                  or (None if stream else (_unanswered_request(main.name, reader, problems)
                                           or _left_at_work(main.name, reader, problems))))
    response = _response(reader, main.name, skipped_lines(found_main), unfinished)
    if not response and unfinished is None and reader.entries:
        response = claude_stream.told_reply(main.name, end, problems)
    elif unfinished is None:
        response = claude_stream.checked_reply(main.name, end, response, problems)
    return Conversation(
        format=FORMAT,
        sources=(main.name,) + tuple(a.name for a in agents),
        entries=tuple(entries),
        response=response,
        timing=tokens.timing(counted, snapshots, reader.times),
        problems=tuple(problems),
        placeholders=placeholders(cwds),
    )


def _asks_nothing(reader: Reader, subagents: dict, problems: list[Problem]) -> bool:
    """Whether a session log, read whole, holds Claude Code's text alone: no request (no
    prompt, no turn of the user, no command that may ask), nothing of the agent (no
    message, none Claude Code wrote in its place, no call, no subagent) and nothing
    unknown (a problem of any kind: a line not read, work held in another file, may hold
    either). A log holding no text at all holds no conversation, as before."""
    return bool(reader.entries) and not (reader.requested or reader.prompted or reader.messages or reader.stood_in
                                         or subagents or problems
                                         or any(isinstance(entry, Call) for entry in reader.entries))


def _chained_elsewhere(name: str, values: list[tuple[int, Any]], reader: Reader, problems: list[Problem]) -> None:
    """A session whose first record of the main chain names as its parent
    (``parentUuid``) a record this file does not hold continues a conversation held in
    another file (a session resumed or forked from it, given alone; a file cut at its
    head): the calls made there are unknown, and so are the words the user and the
    harness gave the agent there (the eval prompt among them). A chain that opens
    here (a parent null, or a record of this file on any line) holds its own start; a
    session that opens with a compaction has said so already (``Reader.compacted``)."""
    held = {rec["uuid"] for _, rec in values if isinstance(rec, dict) and isinstance(rec.get("uuid"), str)}
    first = next(((line, rec["parentUuid"]) for line, rec in values if isinstance(rec, dict)
                  and "parentUuid" in rec and rec.get("isSidechain") is not True), None)
    if first is None or reader.continued or not isinstance(first[1], str) or first[1] in held:
        return
    problems.append(Problem(CALLS_MAY_BE_MISSING, name, f"this record continues record {first[1]!r}, which this "
                            "file does not hold (a session resumed from another file, or cut at its head): the "
                            "work before it is not here, so the run's calls are incomplete", first[0]))
    problems.append(Problem(HARNESS_MAY_BE_MISSING, name, "the turns of the user and the harness before this record "
                            "are not here either: no check over the harness text can be decided", first[0]))


def _unanswered_request(name: str, reader: Reader, problems: list[Problem]) -> int | None:
    """The line of a session's last request when the agent never answered it (the
    session ends there: cut, or the answer never written), or answered it with no words
    and no call (``Reader.answers_earlier_turn``). The words before it answer an earlier
    turn, if any: the reply is not known, so the response is unknown. Taken with thinking
    alone or a placeholder, and nothing after (``silent_turn``), the agent was at work:
    its next step lies past the log's end, and the calls it made there too."""
    silent = silent_turn(reader)
    if silent is not None:
        line = reader.requested or silent.line
        problems.append(Problem("no-reply", name, "the agent's turn holds no words and no call yet (thinking alone, "
                                "or the placeholder Claude Code writes before a message's content), and the session "
                                "ends there: its reply lies past the log's end, so the response is unknown", line))
        problems.append(Problem(CALLS_MAY_BE_MISSING, name, "the session ends with the agent at work on its turn for "
                                "a request, before its first words or call (the log cut short, or the run stopped): "
                                "calls made after this line are not in it, so no check over the run's calls can be "
                                "decided", silent.line))
        _harness_cut(name, silent.line, problems)
        return line
    if reader.answers_earlier_turn():
        line = reader.requested
        problems.append(Problem("no-reply", name, "the agent's answer to this request holds no words that were read "
                                "(thinking alone, or nothing): the words before it answer an earlier turn, so the "
                                "response is unknown", line))
        return line
    if reader.asked is None:
        return None
    line, _ = reader.asked
    if reader.ended_in_error == line:  # the turn ended there, cut short by nothing: no call is missing
        problems.append(Problem("no-reply", name, "an API error Claude Code wrote in the model's place ended the "
                                "agent's turn for this request, the agent silent: the words before it (if any) answer "
                                "an earlier turn, so the response is unknown", line))
        return line
    if reader.interrupted_at == line:  # the user ended that turn before the agent said or did anything
        problems.append(Problem("no-reply", name, "the user interrupted the agent's turn for this request before the "
                                "agent said or did anything: the words before it (if any) answer an earlier turn, so "
                                "the response is unknown", line))
        return line
    problems.append(Problem("no-reply", name, "the session ends with a request the agent did not answer: the words "
                            "before it (if any) answer an earlier turn, so the response is unknown", line))
    problems.append(Problem(CALLS_MAY_BE_MISSING, name, "the session ends with a request the agent did not answer "
                            "(the log cut short, or the agent stopped): calls made after this line are not in it, so "
                            "no check over the run's calls can be decided", line))
    _harness_cut(name, line, problems)
    return line


def _harness_cut(name: str, line: int, problems: list[Problem]) -> None:
    """``harness-may-be-missing`` at ``line``, where a session log is seen to be cut
    short or stopped while its agent worked: what the harness said after it (a hook's
    output, an error Claude Code wrote) is not in it, as the calls made there are not."""
    problems.append(Problem(HARNESS_MAY_BE_MISSING, name, "the session ends here with the agent's turn under way: "
                            "what the harness said after this line (a hook's output, an error) is not in it, so no "
                            "check over the harness text can be decided", line))


def _left_at_work(name: str, reader: Reader, problems: list[Problem]) -> int | None:
    """The last line of a session log whose main agent's last step is a call (answered
    or not), with nothing after it that ends a turn (``claude_at_work``: no words of the
    agent, read or not, no turn of the user, no message written in the model's place):
    the session ends with the agent at work, since a call's answer always goes back to
    the agent. The log was cut short (a copy, a crash) or the agent was stopped (a
    timeout, a turn limit), and nothing in it tells which, so calls made after its last
    line may be missing, and a check that no such call was made must not pass; the
    reply, if any, lies past the cut too, so the response is unknown, and so is what
    the harness said there (``_harness_cut``). A session log has
    no end record of its own (stream-json's result records are ``claude_stream``'s),
    so a log cut where the agent had finished a turn is read as finished. A subagent's
    transcript left so is ``claude_subagents``' to judge (its ``Task`` call tells more)."""
    found = left_at_work(reader)
    if found is None:
        return None
    line = found.line
    problems.append(Problem(CALLS_MAY_BE_MISSING, name, "the session ends with the agent at work: its last step is "
                            "a call, whose answer goes back to the agent, and no words of it follow (the log cut "
                            "short, or the run stopped by a timeout or a turn limit: the log does not say which), so "
                            "calls made after this line are not in it, no check over the run's calls can be decided, "
                            "and the response is unknown", line))
    _harness_cut(name, line, problems)
    return line


def _response(reader: Reader, name: str, skipped: list[int], unfinished: int | None = None) -> tuple[Text, ...]:
    """The main agent's reply, unsure when a line of the session after its last
    message could not be read (``skipped``: cut short, not JSON), or a part of an
    assistant message holding text was not read in or after the message of its last
    words (``Reader.unread_reply``), or that message ended in a call no line holds
    (``Reader.reply_cut``): either may hold its last words (a session cut
    while writing them, content of a shape not read), so the response is unknown,
    never the words before them, nor none. So is that of a stream-json run that did
    not finish (``unfinished``: the line that says so)."""
    if unfinished == claude_stream.NO_WORDS:
        return ()
    reply = reader.reply(unknown=unfinished is not None)
    unread = [line for line in (reader.unread_reply(), reader.reply_cut()) if line is not None]
    after = [line for line in skipped if line > reader.last_said] + unread
    after += [unfinished] if unfinished is not None else []
    if not after or not reader.entries:  # no session read at all: no conversation, no response
        return tuple(reply)
    return tuple(replace(text, unsure=True) for text in reply) or (Text("agent", "reply", "", Origin(name, min(after)),
                                                                        unsure=True),)


def _note_cwd(rec: dict, cwds: dict[str, None]) -> None:
    cwd = rec.get("cwd")
    if isinstance(cwd, str) and cwd.strip("/\\") and "\n" not in cwd:
        cwds.setdefault(cwd.rstrip("/\\"))


def placeholders(cwds: dict[str, None]) -> tuple[tuple[str, str], ...]:
    """The session's working directory (the first met), as plain text and as written
    inside JSON, and ``<cwd>``. The writer replaces it in every file it renders (one
    pass over the text instead of a walk over every value of every record), so a
    folder below it keeps its relative part (``<cwd>/web/app.py``): no two folders
    of the session read as one."""
    root = next(iter(cwds), None)
    if root is None:
        return ()
    spellings = {root}
    if WINDOWS_PATH.match(root):  # Windows takes either slash, and the writer ignores case for it
        spellings |= {root.replace("\\", "/"), root.replace("/", "\\")}
    found = {form for text in spellings for form in (text, json.dumps(text, ensure_ascii=False)[1:-1])}
    return tuple((text, CWD) for text in sorted(found, key=lambda c: (-len(c), c)))
