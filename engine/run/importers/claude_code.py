"""Claude Code session logs (``*.jsonl``): one JSON record per line.

What is read, and how:

- ``user``/``assistant`` records hold a ``message``; other record types (queue
  operations, summaries, snapshots, progress) are not messages and are skipped;
  an unknown type is reported and skipped. ``system`` records with text are
  harness text.
- One assistant message may be split over several lines: its blocks are merged
  by ``message.id``, and its token usage, repeated on each line, counted once.
  Empty and ``(no content)`` text blocks are streaming placeholders, dropped.
- Each ``tool_use`` block is a call (several in one message: parallel calls).
  A ``tool_result`` is paired with its call by ``tool_use_id``, never by position;
  ``is_error`` true gives status ``error`` (absent: success); a call with no
  result has status ``no_result``. Result content may be a string, a list of
  parts or empty (then the structured ``toolUseResult`` stands in). Text inside
  a result stays in it, ``<system-reminder>`` tags too: the tool (so the agent)
  controls it; the line-number prefixes of ``Read`` results are removed.
- Subagent work (``isSidechain`` records, ``agent-*.jsonl`` files) is nested
  under the ``Task`` call that started it and kept out of the main agent's counts.
- A user-role message the system wrote (a compaction summary, meta text) is
  harness text; the first real user turn is the eval prompt.
- The session's working directory (its first record's ``cwd``) is replaced by
  ``<cwd>`` everywhere; a folder the session moved into keeps its part below it
  (``<cwd>/web``), and home folders elsewhere become ``<home>`` (``writer``).
- The response is the last assistant text of the main agent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers import tokens
from referee.engine.run.importers.record import Call, Conversation, Origin, Text
from referee.engine.run.importers.source import Source, json_container, json_lines, may_hold
from referee.engine.run.model import Problem

FORMAT = "claude-code"
CWD = "<cwd>"
SUBAGENT_TOOLS = frozenset({"Task", "Agent"})
MAX_NESTING = 32  # subagents started by subagents, followed this deep (names and walks stay bounded)
_SKIPPED_TYPES = frozenset({"summary", "queue-operation", "file-history-snapshot", "progress",
                            "custom-title", "tag", "agent-name", "result"})
_PLACEHOLDERS = frozenset({"", "(no content)"})
CALL_WORDS = ("tool_use",)  # a line holding this word may hold a call (source.json_lines)
_READ_PREFIX = re.compile(r"^ *[0-9]+(?:→|\t)", re.M)
_HOOK = re.compile(r"\bhook\b", re.I)


def looks_like(value: Any) -> bool:
    """True for a JSON record of a Claude Code session."""
    return isinstance(value, dict) and (
        ("sessionId" in value and "type" in value)
        or (value.get("type") in ("user", "assistant") and isinstance(value.get("message"), dict)
            and "uuid" in value))


def opens_session(value: Any) -> bool:
    """True for a record a session may open with that names no session: a summary,
    a file-history snapshot (what a resumed session starts with)."""
    return isinstance(value, dict) and value.get("type") in ("summary", "file-history-snapshot")


class _Reader:
    """Reads the records of one agent (the main one or a subagent) in order."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        self.entries: list[Call | Text] = []
        self.messages: dict[str, dict] = {}  # message.id -> {"line", "usage", "seen"}
        self.calls: dict[str, list[int]] = {}  # tool_use_id -> positions in entries
        self.last_text: list[Text] = []
        self.prompted = False
        self.times: list[str] = []
        self.results: dict[int, dict] = {}  # entry position -> structured toolUseResult

    def record(self, source: str, line: int, rec: dict) -> None:
        kind = rec.get("type")
        if isinstance(rec.get("timestamp"), str):
            self.times.append(rec["timestamp"])
        message = rec.get("message")
        if kind == "assistant" and isinstance(message, dict):
            self.assistant(Origin(source, line), message)
        elif kind == "user" and isinstance(message, dict):
            self.user(Origin(source, line), rec, message)
        elif kind == "system":
            text = rec.get("content")
            if isinstance(text, str) and text.strip():
                self.entries.append(Text(R.HOOK if _HOOK.search(text) else R.SYSTEM, "", text, Origin(source, line)))
            self.unread(Origin(source, line), "this system record", {k: v for k, v in rec.items() if k != "content"})
        elif isinstance(kind, str) and kind in _SKIPPED_TYPES:
            if kind != "progress":  # a subagent's progress mirrors its own transcript, read from there
                self.unread(Origin(source, line), f"this {kind} record", rec)
        else:
            shown = kind if isinstance(kind, str) else type(kind).__name__
            self.problems.append(Problem("unknown-record", source, f"record of unknown type {shown!r}; skipped", line))
            if may_hold(json.dumps(rec, ensure_ascii=False, default=str), CALL_WORDS):
                self.problems.append(Problem(CALLS_MAY_BE_MISSING, source, "this record, skipped, holds a tool_use: no "
                                             "check over the run's calls can be decided", line))

    # --- assistant ------------------------------------------------------------------

    def assistant(self, origin: Origin, message: dict) -> None:
        key = message.get("id")
        seen = None
        if isinstance(key, str):
            state = self.messages.setdefault(key, {"seen": set(), "usage": None, "line": origin.line})
            state["usage"] = message.get("usage") if isinstance(message.get("usage"), dict) else state["usage"]
            seen = state["seen"]
        else:
            state = self.messages[f"#{origin.source}:{origin.line}"] = {"seen": set(), "usage": message.get("usage"),
                                                                        "line": origin.line}
        tokens.note_stop(state, message)
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            self.unread(origin, "this message's content, which is no list,", content)
            return
        texts: list[Text] = []
        for block in content:
            if not isinstance(block, dict):
                self.unread(origin, "a block of this message that is no object", block)
                continue
            marker = _block_key(block)
            if seen is not None:
                if marker in seen:
                    continue  # the same block repeated on another line of a split message
                seen.add(marker)
            self.block(origin, block, texts)
        if texts:
            self.last_text = texts

    def block(self, origin: Origin, block: dict, texts: list[Text]) -> None:
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str) and text.strip() not in _PLACEHOLDERS:
                note = Text("agent", "text", text, origin)
                self.entries.append(note)
                texts.append(note)
        elif kind == "thinking":
            text = block.get("thinking")
            if isinstance(text, str) and text.strip():
                self.entries.append(Text("agent", "thinking", text, origin))
        elif kind == "tool_use":
            self.tool_use(origin, block)
        else:
            self.unread(origin, f"a block of type {kind!r}", block)

    def tool_use(self, origin: Origin, block: dict) -> None:
        call_id = block.get("id") if isinstance(block.get("id"), str) else None
        raw_name = block.get("name")
        name = raw_name if isinstance(raw_name, str) else ""
        args = block.get("input", {})
        if call_id is not None and call_id in self.calls:
            self.problems.append(Problem("duplicate-id", origin.source,
                                         f"tool_use id {call_id!r} used again; results pair with the first call still open", origin.line))
        self.calls.setdefault(call_id or "", []).append(len(self.entries))
        self.entries.append(Call(name, args, None, R.NO_RESULT, origin, None, call_id))

    # --- user -----------------------------------------------------------------------

    def user(self, origin: Origin, rec: dict, message: dict) -> None:
        content = message.get("content")
        if isinstance(content, str):
            self.user_text(origin, rec, content)
            return
        if not isinstance(content, list):
            self.unread(origin, "this message's content, which is no list,", content)
            return
        for part in content:
            if isinstance(part, dict) and part.get("type") == "tool_result":
                self.tool_result(origin, rec, part)
            elif isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                self.user_text(origin, rec, part["text"])
            else:
                self.unread(origin, "a part of this user message", part)

    def unread(self, origin: Origin, what: str, value: Any) -> None:
        """A part of a record the reader does not take: when it holds what reads as a
        call, the call is not read, so the run's calls are incomplete."""
        if holds_call(value) or (isinstance(value, str) and may_hold(value.casefold(), CALL_WORDS)):
            self.problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, f"{what}, not read, holds a tool call: "
                                         "no check over the run's calls can be decided", origin.line))

    def user_text(self, origin: Origin, rec: dict, text: str) -> None:
        if not text.strip():
            return
        if rec.get("isCompactSummary"):
            kind = R.COMPACTION
        elif text.lstrip().startswith("<system-reminder>"):
            kind = R.SYSTEM_REMINDER
        elif rec.get("isMeta") or "-hook>" in text:
            kind = R.HOOK if "hook" in text else R.SYSTEM
        elif not self.prompted:
            kind, self.prompted = R.EVAL_PROMPT, True
        else:
            kind = R.USER
        self.entries.append(Text(kind, "", text, origin))

    def tool_result(self, origin: Origin, rec: dict, part: dict) -> None:
        call_id = part.get("tool_use_id")
        call_id = call_id if isinstance(call_id, str) else None
        known = self.calls.get(call_id, []) if call_id is not None else []
        open_calls = [i for i in known if R.call_at(self.entries, i).result_origin is None]
        if not open_calls:
            reason = "its call is missing" if not known else "its call already has a result"
            self.problems.append(Problem("orphan-result", origin.source,
                                         f"tool_result for {call_id!r}: {reason}; skipped", origin.line))
            return
        position = open_calls[0]
        call = R.call_at(self.entries, position)
        structured = rec.get("toolUseResult")
        result = _result_value(part.get("content"), structured, call.tool)
        flag = part.get("is_error", False)
        status = "error" if flag is True else "success"
        unread = call.unread
        if not isinstance(flag, bool) and flag is not None:
            self.problems.append(Problem("status-unknown", origin.source, f"is_error is {flag!r}, not true or false: "
                                         "its call's status is unknown", origin.line))
            unread = unread | {"status"}
        self.entries[position] = replace(call, result=result, status=status, result_origin=origin, unread=unread)
        if isinstance(structured, dict):
            self.results[position] = structured


def _block_key(block: dict) -> tuple:
    """What tells a block repeated on another line of a split message: the whole
    block (two calls with no id, or one id with another tool, are two calls)."""
    return (str(block.get("type")), repr(sorted((k, repr(v)) for k, v in block.items())))


def holds_call(value: Any) -> bool:
    """Whether ``value`` holds what reads as a call: an object whose ``type`` names
    ``tool_use`` in any case (``server_tool_use``, ``Tool_use``), or that has a ``name``
    and an ``input``. Walked without recursion: a value may be 512 levels deep."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            kind = item.get("type")
            if (isinstance(kind, str) and "tool_use" in kind.casefold()) or ("name" in item and "input" in item):
                return True
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _result_value(content: Any, structured: Any, tool: str) -> Any:
    """The result as the agent saw it: JSON text as its value, other text as it is."""
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                texts.append(str(part.get("text", "")))
            elif isinstance(part, dict):
                texts.append(f"[{part.get('type', 'part')}]")
            elif isinstance(part, str):
                texts.append(part)
        content = "\n".join(texts)
    if content is None or content == "":
        return structured if structured is not None else ""
    if not isinstance(content, str):
        return content
    whole = json_container(content.strip())
    if whole is not None:
        return whole[0]
    if tool == "Read" and _READ_PREFIX.match(content):
        content = _READ_PREFIX.sub("", content)
    return content


# --- a session: the main agent, its subagents, and the numbers ------------------------------


def read_session(main: Source, agents: tuple[Source, ...] = ()) -> Conversation:
    """The conversation of a session file, with the subagent files that belong to it."""
    problems: list[Problem] = []
    values, found = json_lines(main, CALL_WORDS)
    problems.extend(found)
    reader = _Reader(problems)
    cwds: dict[str, None] = {}  # in the order met: the first is the session's own
    groups: dict[str, list[tuple[str, int, dict]]] = {}
    roots: dict[str, str] = {}
    for line, rec in values:
        if not isinstance(rec, dict):
            _not_a_record(main.name, line, rec, problems)
            continue
        _note_cwd(rec, cwds)
        if rec.get("isSidechain") is True:
            groups.setdefault(_side_key(rec, line, roots), []).append((main.name, line, rec))
        else:
            reader.record(main.name, line, rec)
    for agent in agents:
        values, found = json_lines(agent, CALL_WORDS)
        problems.extend(found)
        records = [(agent.name, line, rec) for line, rec in values if isinstance(rec, dict)]
        for line, rec in values:
            if not isinstance(rec, dict):
                _not_a_record(agent.name, line, rec, problems)
        for _, _, rec in records:
            _note_cwd(rec, cwds)
        key = next((r["agentId"] for _, _, r in records if isinstance(r.get("agentId"), str)),
                   agent.name.removeprefix("agent-").removesuffix(".jsonl"))
        groups.setdefault(key, []).extend(records)
    subagents = {key: _read_agent(records, problems) for key, records in sorted(groups.items())}
    entries = _attach(reader, subagents, problems)
    counted, snapshots = tokens.count([reader] + [sub for sub, _ in subagents.values()])
    if snapshots:
        problems.append(tokens.snapshot_problem(main.name, snapshots))
    return Conversation(
        format=FORMAT,
        sources=(main.name,) + tuple(a.name for a in agents),
        entries=tuple(entries),
        response=tuple(reader.last_text),
        timing=tokens.timing(counted, snapshots, reader.times),
        problems=tuple(problems),
        placeholders=placeholders(cwds),
    )


def _not_a_record(source: str, line: int, value: Any, problems: list[Problem]) -> None:
    problems.append(Problem("unknown-record", source, "line is not a JSON object; skipped", line))
    if holds_call(value) or may_hold(json.dumps(value, ensure_ascii=False, default=str), CALL_WORDS):
        problems.append(Problem(CALLS_MAY_BE_MISSING, source, "this line, skipped, holds a tool call: no check "
                                "over the run's calls can be decided", line))


def _note_cwd(rec: dict, cwds: dict[str, None]) -> None:
    cwd = rec.get("cwd")
    if isinstance(cwd, str) and cwd.strip("/\\") and "\n" not in cwd:
        cwds.setdefault(cwd.rstrip("/\\"))


def _side_key(rec: dict, line: int, roots: dict[str, str]) -> str:
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


def _read_agent(records: list[tuple[str, int, dict]], problems: list[Problem]) -> tuple[_Reader, Origin]:
    reader = _Reader(problems)
    for source, line, rec in records:
        reader.record(source, line, rec)
    source, line, _ = records[0] if records else ("", 0, None)
    return reader, Origin(source, line)


def _prompt_of(reader: _Reader) -> str | None:
    return next((e.text for e in reader.entries if isinstance(e, Text) and e.kind == R.EVAL_PROMPT), None)


def _attach(reader: _Reader, subagents: dict, problems: list[Problem]) -> list:
    """The main entries, each Task call holding the subagent it started (a subagent's
    own Task calls holding theirs, ``MAX_NESTING`` deep at most)."""
    left = dict(subagents)
    entries = _nested(reader, left, problems, 1)
    for key, (sub, origin) in left.items():
        message = f"subagent {key!r} started by no Task call of this session; its {len(sub.entries)} entries are left out"
        problems.append(Problem("unattached-subagent", origin.source, message, origin.line))
        calls = sum(isinstance(entry, Call) for entry in sub.entries)
        if calls:  # calls that were made but have no place in the run: no check over calls can be decided
            message = (f"subagent {key!r} made {calls} tool calls that no Task call of this session started: "
                       "the run's calls are incomplete without them")
            problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, message, origin.line))
    for entry in _every_call(entries):  # a subagent that ran, whose calls this session does not hold
        if entry.tool in SUBAGENT_TOOLS and entry.subagent is None and entry.status in ("success", R.NO_RESULT):
            message = (f"the subagent this {entry.tool} call started has no transcript here (its agent-*.jsonl "
                       "was not found beside the session): its calls are unknown")
            problems.append(Problem(CALLS_MAY_BE_MISSING, entry.origin.source, message, entry.origin.line))
    return entries


def _nested(reader: _Reader, left: dict, problems: list[Problem], depth: int) -> list:
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
        entries[position] = replace(call, subagent=work)
    return entries


def _started(reader: _Reader, left: dict) -> Iterator[tuple[int, Call, str, _Reader, Origin]]:
    """``(position, call, key, subagent, its origin)`` of each of ``reader``'s Task
    calls whose subagent is in ``left``, popped from it as each call is reached."""
    for position, entry in enumerate(reader.entries):
        if isinstance(entry, Call) and entry.tool in SUBAGENT_TOOLS:
            key = _agent_key(reader.results.get(position), entry.args, left)
            if key is not None:
                yield (position, entry, key, *left.pop(key))


def _drain(sub: _Reader, left: dict) -> int:
    """Pops from ``left`` every subagent ``sub`` started, theirs too (without recursion:
    the chain may be as long as the files given); how many."""
    pending, count = [sub], 0
    while pending:
        for _, _, _, found, _ in _started(pending.pop(), left):
            pending.append(found)
            count += 1
    return count


def _every_call(entries) -> list[Call]:
    """The calls of ``entries`` and of every subagent nested in them, in order."""
    found: list[Call] = []
    for entry in entries:
        if isinstance(entry, Call):
            found.append(entry)
            if entry.subagent is not None:
                found.extend(_every_call(entry.subagent.entries))
    return found


def _agent_key(structured: dict | None, args: Any, left: dict) -> str | None:
    if structured is not None and isinstance(structured.get("agentId"), str) and structured["agentId"] in left:
        return structured["agentId"]
    prompt = args.get("prompt") if isinstance(args, dict) else None
    if isinstance(prompt, str):
        for key, (sub, _) in left.items():
            if _prompt_of(sub) == prompt:
                return key
    return None


def placeholders(cwds: dict[str, None]) -> tuple[tuple[str, str], ...]:
    """The session's working directory (the first met), as plain text and as written
    inside JSON, and ``<cwd>``. The writer replaces it in every file it renders (one
    pass over the text instead of a walk over every value of every record), so a
    folder below it keeps its relative part (``<cwd>/web/app.py``): no two folders
    of the session read as one."""
    root = next(iter(cwds), None)
    if root is None:
        return ()
    found = {root, json.dumps(root, ensure_ascii=False)[1:-1]}
    return tuple((text, CWD) for text in sorted(found, key=lambda c: (-len(c), c)))
