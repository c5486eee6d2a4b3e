"""Claude Code session logs (``*.jsonl``): one JSON record per line.

What the records of one agent mean is ``claude_records``'s; how stream-json is told
and what its result records say of how the run ended, ``claude_stream``'s; this module
puts a session together:

- Subagent work (``isSidechain`` records, ``agent-*.jsonl`` files) is nested
  under the ``Task`` call that started it and kept out of the main agent's counts
  (``claude_subagents``, which says what makes the run's calls incomplete).
- The session's working directory (its first record's ``cwd``) is replaced by
  ``<cwd>`` everywhere; a folder the session moved into keeps its part below it
  (``<cwd>/web``), and home folders elsewhere become ``<home>`` (``writer``).
- The response is the last assistant text of the main agent, when no call came
  with it or after it (``Reader.reply``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import claude_stream, tokens
from referee.engine.run.importers.claude_format import FORMAT
from referee.engine.run.importers.claude_records import Reader
from referee.engine.run.importers.claude_subagents import attach, read_agent, side_key
from referee.engine.run.importers.claude_unread import may_be_turn, not_a_record
from referee.engine.run.importers.record import Conversation, Origin, Text
from referee.engine.run.importers.jsondoc import message_array
from referee.engine.run.importers.source import CALL_WORDS, Source, json_lines, may_hold
from referee.engine.run.importers.writer import WINDOWS_PATH
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem

CWD = "<cwd>"
# What a session line that could not be read is reported as (``source.each_json_line``).
_SKIPPED_LINES = frozenset({"bad-json", "truncated", "too-deep"})


# --- a session: the main agent, its subagents, and the numbers ------------------------------


def read_session(main: Source, agents: tuple[Source, ...] = ()) -> Conversation:
    """The conversation of a session file, with the subagent files that belong to it."""
    problems: list[Problem] = []
    values, found_main = _records(main)
    stream, end, turn = 0, None, 0  # the first line of stream-json, its last result record, a turn after it
    ended = 0  # the line of the result record before the last: where the last turn starts
    problems.extend(found_main)
    reader = Reader(problems)
    cwds: dict[str, None] = {}  # in the order met: the first is the session's own
    groups: dict[str, list[tuple[str, int, dict]]] = {}
    roots: dict[str, str] = {}
    for line, rec in values:
        if not isinstance(rec, dict):
            not_a_record(main.name, line, rec, problems)
            continue
        _note_cwd(rec, cwds)
        if claude_stream.is_stream_record(rec):
            stream = stream or line
            if rec.get("type") == "result" and rec.get(claude_stream.PARENT_CALL) is None:
                ended, end, turn = end[0] if end is not None else 0, (line, rec), 0
            elif claude_stream.opens_turn(rec):
                turn = turn or line  # the first record of a turn that has no result yet
        if rec.get("isSidechain") is True:
            groups.setdefault(side_key(rec, line, roots), []).append((main.name, line, rec))
        elif isinstance(rec.get(claude_stream.PARENT_CALL), str):  # a subagent's message in a stream: its Task call's id
            groups.setdefault(rec[claude_stream.PARENT_CALL], []).append((main.name, line, rec))
        else:
            reader.record(main.name, line, rec)
    _chained_elsewhere(main.name, values, reader, problems)
    reader.unstreamed()
    for agent in agents:
        values, found = json_lines(agent, CALL_WORDS)
        problems.extend(found)
        records = [(agent.name, line, rec) for line, rec in values if isinstance(rec, dict)]
        for line, rec in values:
            if not isinstance(rec, dict):
                not_a_record(agent.name, line, rec, problems)
        for _, _, rec in records:
            _note_cwd(rec, cwds)
        key = next((r["agentId"] for _, _, r in records if isinstance(r.get("agentId"), str)),
                   agent.name.removeprefix("agent-").removesuffix(".jsonl"))
        groups.setdefault(key, []).extend(records)
    subagents = {key: read_agent(records, problems) for key, records in sorted(groups.items())}
    _changed_inputs([reader] + [sub for sub, _ in subagents.values()])
    entries = attach(reader, subagents, problems)
    counted, snapshots = tokens.count([reader] + [sub for sub, _ in subagents.values()])
    if snapshots:
        problems.append(tokens.snapshot_problem(main.name, snapshots))
    unfinished = (claude_stream.unfinished(main.name, stream, end, turn, values, problems)
                  or claude_stream.unanswered(main.name, reader, ended, end, problems)
                  or (None if stream else _unanswered_request(main.name, reader, problems)))
    response = _response(reader, main.name, [p.line for p in found_main if p.code in _SKIPPED_LINES and p.line],
                         unfinished)
    if not response and unfinished is None and reader.entries:
        response = claude_stream.told_reply(main.name, end, problems)
    return Conversation(
        format=FORMAT,
        sources=(main.name,) + tuple(a.name for a in agents),
        entries=tuple(entries),
        response=response,
        timing=tokens.timing(counted, snapshots, reader.times),
        problems=tuple(problems),
        placeholders=placeholders(cwds),
    )


def _records(source: Source) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """``(line, record)`` of each record of a session, and the problems met: its JSON
    lines, or the elements of the one JSON array it is (claude-code-action's execution
    file holds the stream-json messages so), each at the line it starts on. An element
    that cannot be read, or an array cut short, is reported as a line that cannot be
    (``bad-json``, ``truncated``): it may hold a call, or the last words."""
    document = message_array(source.data) if source.data.lstrip()[:1] == b"[" else None
    if document is None or document.base:
        return _session_lines(source)
    values: list[tuple[int, Any]] = []
    problems = list(source.problems)
    turns: list[int] = []  # the lines of records that could not be read and may be turns of the user
    for index, element in enumerate(document.elements):
        raw = source.data[element.start:element.end]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        found = document.value(index, text) if text is not None and element.end is not None else None
        if found is not None:
            values.append((element.line, found[0]))
            continue
        why = ("the document is cut short inside it" if element.end is None else
               "it is not UTF-8" if text is None else "it is not JSON (or nested too deep)")
        problems.append(Problem("truncated" if element.end is None else "bad-json", source.name,
                                f"record {index + 1} cannot be read: {why}; skipped", element.line))
        if may_be_turn(raw.decode("utf-8", "replace")):
            turns.append(element.line)
        if element.end is None or may_hold(raw.decode("utf-8", "replace"), CALL_WORDS):
            problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, "this record could not be read and may hold "
                                    "a tool call: no check over the run's calls can be decided", element.line))
    if not document.closed and (not document.elements or document.elements[-1].end is not None):
        line = source.data.count(b"\n") + 1
        problems.append(Problem("truncated", source.name, "the array of records is cut short: a record may be lost",
                                line))
        problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, "the array of records is cut short and may have "
                                "lost a tool call: no check over the run's calls can be decided", line))
        turns.append(line)
    return values, problems + _turns_unread(source.name, turns)


def _session_lines(source: Source) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """``(line, record)`` of each JSON line of a session, and the problems met: a line
    that could not be read may be a turn of the user too (``_turns_unread``)."""
    values, problems = json_lines(source, CALL_WORDS)
    skipped = [p.line for p in problems if p.code in _SKIPPED_LINES and p.line]
    texts = _lines_at(source.data, skipped)
    return values, problems + _turns_unread(source.name, [n for n in skipped if may_be_turn(texts[n])])


def _turns_unread(name: str, lines: list[int]) -> list[Problem]:
    """``harness-may-be-missing`` at the first of ``lines``, those of records that could
    not be read and may be turns of the user or text the harness wrote
    (``claude_unread.may_be_turn``): a check over the harness text is then an ERROR,
    never a pass on the turns read around them."""
    if not lines:
        return []
    return [Problem(HARNESS_MAY_BE_MISSING, name, "a record that could not be read may be a turn of the user: no "
                    "check over the harness text can be decided", min(lines))]


def _lines_at(data: bytes, numbers: list[int]) -> dict[int, str]:
    """The text of the lines ``numbers`` of ``data`` (counted as ``Source`` counts
    them), found in one pass over its bytes, up to the last of them: the lines that
    could not be read are few, and their text is not kept by the reader."""
    wanted, found = set(numbers), {}
    at, number, last = 0, 0, max(numbers, default=0)
    while number < last and at <= len(data):
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        number += 1
        if number in wanted:
            found[number] = data[at:end].decode("utf-8", "replace")
        at = end + 1
    return found


def _chained_elsewhere(name: str, values: list[tuple[int, Any]], reader: Reader, problems: list[Problem]) -> None:
    """A session whose first record of the main chain names as its parent
    (``parentUuid``) a record this file does not hold continues a conversation held in
    another file (a session resumed or forked from it, given alone; a file cut at its
    head): the calls made there are unknown. A chain that opens here (a parent null, or
    a record of this file on any line) holds its own start; a session that opens with a
    compaction has said so already (``Reader.compacted``)."""
    held = {rec["uuid"] for _, rec in values if isinstance(rec, dict) and isinstance(rec.get("uuid"), str)}
    first = next(((line, rec["parentUuid"]) for line, rec in values if isinstance(rec, dict)
                  and "parentUuid" in rec and rec.get("isSidechain") is not True), None)
    if first is None or reader.continued or not isinstance(first[1], str) or first[1] in held:
        return
    problems.append(Problem(CALLS_MAY_BE_MISSING, name, f"this record continues record {first[1]!r}, which this "
                            "file does not hold (a session resumed from another file, or cut at its head): the "
                            "work before it is not here, so the run's calls are incomplete", first[0]))


def _unanswered_request(name: str, reader: Reader, problems: list[Problem]) -> int | None:
    """The line of a session's last request when the agent never answered it (the
    session ends there: cut, or the answer never written), or answered it with no words
    and no call (``Reader.answers_earlier_turn``). The words before it answer an earlier
    turn, if any: the reply is not known, so the response is unknown."""
    if reader.answers_earlier_turn():
        line = reader.requested
        problems.append(Problem("no-reply", name, "the agent's answer to this request holds no words that were read "
                                "(thinking alone, or nothing): the words before it answer an earlier turn, so the "
                                "response is unknown", line))
        return line
    if reader.asked is None:
        return None
    line, _ = reader.asked
    problems.append(Problem("no-reply", name, "the session ends with a request the agent did not answer: the words "
                            "before it (if any) answer an earlier turn, so the response is unknown", line))
    return line


def _response(reader: Reader, name: str, skipped: list[int], unfinished: int | None = None) -> tuple[Text, ...]:
    """The main agent's reply, unsure when a line of the session after its last
    message could not be read (``skipped``: cut short, not JSON), or a part of an
    assistant message holding text was not read in or after the message of its last
    words (``Reader.unread_reply``): either may hold its last words (a session cut
    while writing them, content of a shape not read), so the response is unknown,
    never the words before them, nor none. So is that of a stream-json run that did
    not finish (``unfinished``: the line that says so)."""
    if unfinished == claude_stream.NO_WORDS:
        return ()
    reply = reader.reply()
    unread = reader.unread_reply()
    after = [line for line in skipped if line > reader.last_said] + ([unread] if unread is not None else [])
    after += [unfinished] if unfinished is not None else []
    if not after or not reader.entries:  # no session read at all: no conversation, no response
        return tuple(reply)
    return tuple(replace(text, unsure=True) for text in reply) or (Text("agent", "reply", "", Origin(name, min(after)),
                                                                        unsure=True),)


def _note_cwd(rec: dict, cwds: dict[str, None]) -> None:
    cwd = rec.get("cwd")
    if isinstance(cwd, str) and cwd.strip("/\\") and "\n" not in cwd:
        cwds.setdefault(cwd.rstrip("/\\"))


def _changed_inputs(readers: list[Reader]) -> None:
    """The hooks' answers that changed a call's input (or output) and that no call of the
    agent they were read with took (``Reader.input_changed``), once every agent's calls are
    read: one naming a call takes it in whichever agent holds it (a subagent's file may);
    one naming none (a stream's) is taken by each call, of any agent, of the tool its
    hook's name gives that it may have run for (``Reader.ran_for``). One no call can take
    shows a call not read: the run's calls are incomplete."""
    for owner in readers:
        for call_id, waiting in owner.changed_later.items():
            for origin, changed in waiting:
                found = [(reader, position) for reader in readers for position in
                         (reader.calls.get(call_id, []) if call_id is not None else reader.ran_for(origin, changed))]
                if not found:
                    owner.input_changed_unplaced(origin, changed)
                for reader, position in found:
                    reader.hook_changed(position, origin, changed)
        owner.changed_later = {}


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
