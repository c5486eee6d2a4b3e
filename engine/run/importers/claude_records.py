"""What the records of one agent of a Claude Code session mean (``claude_code`` puts
a session together: its main agent, its subagents, the numbers).

- ``user``/``assistant`` records hold a ``message``; other record types (queue
  operations, summaries, snapshots, progress) are not messages and are skipped;
  an unknown type is reported and skipped. ``system`` records with text are
  harness text, and so are the attachments whose text Claude Code gives the agent (a
  hook's context or output: ``claude_attachments``). A part of a record that is skipped (a record of another type, a
  block of another type, content that is no list) and holds what reads as a call
  makes the run's calls incomplete.
- ``stream_event`` records (``--include-partial-messages``) are the model's output as
  it streamed, copies of the assistant records that follow them whole: skipped, but a
  block they started that no record holds whole (a stream cut short) is not read, so a
  call there makes the run's calls incomplete, and text there leaves the reply unknown
  (``claude_partial`` keeps what they started).
- One assistant message may be split over several lines: its blocks are merged
  by ``message.id``, and its token usage, repeated on each line, counted once.
  Empty and ``(no content)`` text blocks are streaming placeholders, dropped.
- Each ``tool_use`` block is a call (several in one message: parallel calls), and
  so is a ``server_tool_use`` or ``mcp_tool_use`` block: a call a server ran, whose
  answer is a ``..._tool_result`` block of the same message.
  A ``tool_result`` is paired with its call by ``tool_use_id``, never by position;
  ``is_error`` true gives status ``error``, and so does content wrapped in
  ``<tool_use_error>`` with no flag (absent or false otherwise: success; a flag of
  another kind, or false on wrapped content: unknown); a call with no result has
  status ``no_result``. Result content may be a
  string, a list of parts or empty (then the structured ``toolUseResult`` stands
  in); a part that holds text in a shape not read leaves the call's return unknown. Text inside a result stays in it, ``<system-reminder>`` tags too: the tool
  (so the agent) controls it; the line-number prefixes of ``Read`` results are removed.
  A result that holds a preview only (``<persisted-output>``: the output was kept in a
  file beside the session), or the head of an output Claude Code cut (``... [N lines
  truncated] ...``), leaves its call's return unknown.
- A user-role message the system wrote (a compaction summary, meta text, the
  record of a slash command and of what it printed, the notice that a background task
  ended) is harness text; the first real user turn is the eval prompt. A compaction met before
  any work of the agent opens a continuation of work held elsewhere: the run's calls
  are incomplete. So is an assistant
  message Claude Code wrote in the model's place (model ``<synthetic>``: an API
  error, a usage limit): it is never the agent's words nor its reply.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers import claude_attachments, claude_requests, claude_results, tokens
from referee.engine.run.importers.claude_hooks import HookEffects
from referee.engine.run.importers.claude_partial import Partial
from referee.engine.run.importers.claude_unread import holds_message
from referee.engine.run.importers.record import Call, Origin, Text
from referee.engine.run.importers.source import CALL_WORDS, holds_call, holds_call_as_text, may_hold, may_say, nested
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem

# Records that are not messages (looked into for a call all the same, but progress):
# what Claude Code 1.x and 2.x write besides them.
_SKIPPED_TYPES = frozenset({"summary", "queue-operation", "file-history-snapshot", "progress",
                            "custom-title", "tag", "agent-name", "result", "attachment", "last-prompt", "mode",
                            "pr-link", "permission-mode", "atis-latch", "ai-title", "cost-state", "bridge-session",
                            "rate_limit_event", "prompt_suggestion"})  # the last two: stream-json's
_PLACEHOLDERS = frozenset({"", "(no content)"})
# Calls: the agent's own, and those a server runs within the message (web search, code
# execution, an MCP connector's tools), whose answers follow as "..._tool_result" blocks.
_CALL_BLOCKS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
_HOOK = re.compile(r"\bhook\b", re.I)


class Reader(HookEffects):
    """Reads the records of one agent (the main one or a subagent) in order."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__()
        self.problems = problems
        self.entries: list[Call | Text] = []
        self.messages: dict[str, dict] = {}  # message.id -> {"line", "usage", "seen"}
        self.calls: dict[str, list[int]] = {}  # tool_use_id -> positions in entries
        self.last_text: list[Text] = []
        self.last_message: dict = {}  # the state of the message last_text is of
        self.called_since = False  # whether a tool_use came after last_text's message
        self.last_said = 0  # the line of the last assistant record read
        self.words_unread_at: int | None = None  # the line of the last assistant part not read that holds text
        self.prompted = False
        # the line of the last request the agent has not answered yet, and whether it is a command's
        self.asked: tuple[int, bool] | None = None
        self.requested = 0  # the line of the last request, answered or not
        self.continued = False  # whether it opened with a compaction of work not held here
        self.times: list[str] = []
        self.results: dict[int, dict] = {}  # entry position -> structured toolUseResult
        # progress holding a call: (its Task's tool_use id, where, the ids of the calls it shows)
        self.progress: list[tuple[Any, Origin, frozenset[str]]] = []
        self.partial = Partial(_CALL_BLOCKS)  # the messages stream_event records started

    def record(self, source: str, line: int, rec: dict) -> None:
        kind = rec.get("type")
        if isinstance(rec.get("timestamp"), str):
            self.times.append(rec["timestamp"])
        message = rec.get("message")
        if (changed := claude_attachments.changed_input(rec)) is not None:
            self.input_changed(Origin(source, line), changed)
        if kind in ("assistant", "user") and isinstance(message, dict):
            origin = Origin(source, line)
            if kind == "assistant" and _synthetic(rec, message):
                self.synthetic(origin, message)
            elif kind == "assistant":
                self.assistant(origin, message)
            else:
                self.user(origin, rec, message)
            # beside what is read (a tool's own result, toolUseResult, holds what it printed)
            self.unread(origin, "a member of this record beside its message",
                        {k: v for k, v in rec.items() if k not in ("message",) + claude_results.STRUCTURED})
            self.unread(origin, "a member of this message beside its content",
                        {k: v for k, v in message.items() if k != "content"})
        elif kind == "system" and rec.get("subtype") == "hook_response" and \
                (given := claude_attachments.hook_response(rec)) is not None:
            self.given(Origin(source, line), rec, given)  # what a hook stream-json reports gave the agent
        elif kind == "system" and rec.get("subtype") == "task_notification" and \
                (given := claude_attachments.task_notification(rec)) is not None:
            self.given(Origin(source, line), rec, given)  # a background task ended: the agent is told
        elif kind == "system":
            if rec.get("subtype") == "compact_boundary":
                self.compacted(Origin(source, line))
            text = rec.get("content")
            if isinstance(text, str) and text.strip():
                self.entries.append(Text(R.HOOK if _HOOK.search(text) else R.SYSTEM, "", text, Origin(source, line)))
            elif text is not None and not isinstance(text, str):  # content of another shape: blocks, an object
                self.unread(Origin(source, line), "this system record's content, which is no text", text)
                self.harness_unread(Origin(source, line), "this system record's content, which is no text", text)
            self.unread(Origin(source, line), "this system record", {k: v for k, v in rec.items() if k != "content"})
        elif kind == "stream_event":  # a partial copy of an assistant record that follows it whole
            self.partial.event(Origin(source, line), rec.get("event"), self.unread)
        elif kind == "attachment" and (prompt := claude_requests.queued_prompt(rec.get("attachment"))) is not None:
            # what the user typed while the agent worked, given it so: a request, as a user message is
            self.user_text(Origin(source, line), {}, prompt)
            beside = {**rec, "attachment": {k: v for k, v in rec["attachment"].items() if k != "prompt"}}
            self.unread(Origin(source, line), "this attachment record beside its prompt", beside)
        elif kind == "attachment" and (given := claude_attachments.harness_text(rec.get("attachment"))) is not None:
            self.given(Origin(source, line), rec, given)
        elif kind == "attachment" and claude_requests.queued_unread(rec.get("attachment")):
            self.turn_unread(Origin(source, line), rec, "this queued prompt, which is no text",
                             rec["attachment"].get("prompt"))
            self.unread(Origin(source, line), "this attachment record", rec)
        elif kind == "progress":  # a subagent's progress mirrors its own transcript, read from there
            if holds_call(rec.get("data")):
                self.progress.append((rec.get("parentToolUseID"), Origin(source, line), _call_ids(rec["data"])))
        elif isinstance(kind, str) and kind in _SKIPPED_TYPES:
            self.unread(Origin(source, line), f"this {kind} record", rec)
        else:
            shown = kind if isinstance(kind, str) else type(kind).__name__
            self.problems.append(Problem("unknown-record", source, f"record of unknown type {shown!r}; skipped", line))
            if holds_call(rec) or holds_call_as_text(rec):
                self.problems.append(Problem(CALLS_MAY_BE_MISSING, source, "this record, skipped, holds a tool_use: no "
                                             "check over the run's calls can be decided", line))
            if kind == "assistant":  # its message is no object: whatever the agent said in it is not read
                self.words_unread(Origin(source, line), "this assistant record's message, which is no object", message)
            if kind == "user":  # its message is no object: whatever the user said in it is not read
                self.turn_unread(Origin(source, line), rec, "this user record's message, which is no object", message)
            elif kind != "assistant" and holds_message(rec):  # a turn of the user, or a reply, for all it says
                what = f"this record of unknown type {shown!r}"
                self.harness_unread(Origin(source, line), what, rec, surely=True)
                self.words_unread(Origin(source, line), what, rec, surely=True)

    # --- assistant ------------------------------------------------------------------

    def assistant(self, origin: Origin, message: dict) -> None:
        self.last_said = origin.line
        self.asked = None  # the agent took its turn (words, or work)
        key = message.get("id")
        seen = None
        if isinstance(key, str):
            state = self.messages.setdefault(key, {"seen": set(), "usage": None, "line": origin.line, "texts": []})
            state["usage"] = message.get("usage") if isinstance(message.get("usage"), dict) else state["usage"]
            seen = state["seen"]
        else:
            state = self.messages[f"#{origin.source}:{origin.line}"] = {"seen": set(), "usage": message.get("usage"),
                                                                        "line": origin.line, "texts": []}
        tokens.note_stop(state, message)
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            self.unread(origin, "this message's content, which is no list", content)
            self.words_unread(origin, "this message's content, which is no list", content)
            return
        texts: list[Text] = []
        here: set[tuple] = set()  # this line's blocks: a repeat is one seen on an earlier line
        for block in content:
            if not isinstance(block, dict):
                self.unread(origin, "a block of this message that is no object", block)
                self.words_unread(origin, "a block of this message that is no object", block)
                continue
            marker = _block_key(block)
            if seen is not None and marker in seen:
                continue  # the same block repeated on another line of a split message
            here.add(marker)
            self.block(origin, block, texts)
        if seen is not None:
            seen.update(here)
        if texts:  # the message's texts so far, over every line it is split over
            state["texts"].extend(texts)
            self.last_text, self.last_message, self.called_since = state["texts"], state, False
        if any(kind == "tool_use" for kind, _ in here):  # the agent's turn goes on after this message
            state["called"] = self.called_since = True

    def synthetic(self, origin: Origin, message: dict) -> None:
        """A message Claude Code wrote in the model's place (an API error, a usage
        limit, "No response requested."): its text is the harness's, never the agent's
        words nor its reply. Any other block is not read, and a call in one makes the
        run's calls incomplete."""
        content = message.get("content")
        content = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(content, list):
            self.unread(origin, "this message's content, which is no list", content)
            return
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
                if block["text"].strip() not in _PLACEHOLDERS:
                    self.entries.append(Text(R.SYSTEM, "", block["text"], origin))
            else:
                self.unread(origin, "a block of a message Claude Code wrote", block)

    def reply(self) -> list[Text]:
        """The agent's last words: the texts of its last message with text, unless
        that message made a call or a call came after it. Then the session stopped
        while the agent was at work (cut off, out of turns): there is no reply, and
        the narration of the call is none."""
        if not self.last_text or not (self.called_since or self.last_message.get("called")):
            return self.last_text
        origin = self.last_text[-1].origin
        self.problems.append(Problem("no-reply", origin.source, "the session ends with the agent still at work "
                                     "(its last text came with a tool call, or one came after it): it has no "
                                     "reply, and the response is empty", origin.line))
        return []

    def block(self, origin: Origin, block: dict, texts: list[Text]) -> None:
        kind = block.get("type")
        if kind in ("text", "thinking"):
            self.unread(origin, f"a {kind} block, beside its {kind}", {k: v for k, v in block.items()
                                                                       if k not in ("type", kind)})
        if kind in ("text", "thinking") and not isinstance(block.get(kind), str):
            self.unread(origin, f"a {kind} block whose {kind} is no text", block)
            if kind == "text":  # words, in a form not read
                self.words_unread(origin, "a text block whose text is no string", block, surely=True)
        elif kind == "text":
            text = block["text"]
            if text.strip() not in _PLACEHOLDERS:
                note = Text("agent", "text", text, origin)
                self.entries.append(note)
                texts.append(note)
        elif kind == "thinking":
            text = block["thinking"]
            if text.strip():
                self.entries.append(Text("agent", "thinking", text, origin))
        elif kind in _CALL_BLOCKS:
            self.tool_use(origin, block)
        elif isinstance(kind, str) and kind.endswith("_tool_result"):
            self.server_result(origin, block)
        else:
            self.unread(origin, f"a block of type {kind!r}", block)
            self.words_unread(origin, f"a block of type {kind!r}", block)

    def server_result(self, origin: Origin, block: dict) -> None:
        """The answer to a call a server ran (web search, code execution, an MCP tool),
        given in the same assistant message: an error when it says so (``is_error``
        true, or content typed ``..._error``)."""
        call_id = block.get("tool_use_id")
        _, position = self._waiting(call_id)
        if position is None:
            self.problems.append(Problem("orphan-result", origin.source, f"{block.get('type')} for {call_id!r}: "
                                         "no open call has that id; skipped", origin.line))
            R.unplaced_answer(self.problems, origin, call_id)
            return
        content = block.get("content")
        error = block.get("is_error") is True or (isinstance(content, dict) and
                                                  str(content.get("type", "")).endswith("_error"))
        call = R.call_at(self.entries, position)
        self.entries[position] = replace(call, result=content, status="error" if error else "success",
                                         result_origin=origin)

    def _waiting(self, call_id: Any) -> tuple[list[int], int | None]:
        """The positions of the calls of ``call_id``, and the first still unanswered."""
        known = self.calls.get(call_id, []) if isinstance(call_id, str) else []
        return known, next((i for i in known if R.call_at(self.entries, i).result_origin is None), None)

    def tool_use(self, origin: Origin, block: dict) -> None:
        call_id = block.get("id") if isinstance(block.get("id"), str) else None
        raw_name = block.get("name")
        name = raw_name if isinstance(raw_name, str) else ""
        args = block.get("input", {})
        unread: frozenset[str] = frozenset()
        if not isinstance(args, dict):  # kept as it is: its fields are unknown, never absent
            self.problems.append(Problem("bad-arguments", origin.source, f"the input of this call ({name!r}) is no "
                                         "object; kept as it is, and a check on its fields is an error",
                                         origin.line))
            unread = frozenset({"args"})
        if call_id is not None and call_id in self.calls:
            self.problems.append(Problem("duplicate-id", origin.source,
                                         f"tool_use id {call_id!r} used again; results pair with the first call still open", origin.line))
        self.calls.setdefault(call_id or "", []).append(len(self.entries))
        self.entries.append(Call(name, args, None, R.NO_RESULT, origin, None, call_id, unread=unread))
        for hook_origin, changed in self.changed_later.pop(call_id, []) if call_id is not None else []:
            self.hook_changed(len(self.entries) - 1, hook_origin, changed)

    def words_unread(self, origin: Origin, what: str, value: Any, surely: bool = False) -> None:
        """An assistant part not read that holds text (``may_say``, or ``surely``): what
        the agent said there is not known, and when it is said after its last words
        read, those may not be its last (``unread_reply``)."""
        if surely or may_say(value):
            self.words_unread_at = max(origin.line, self.words_unread_at or 0)  # read out of order: the last
            self.problems.append(Problem("unread-text", origin.source, f"{what}, not read, holds text: what the "
                                         "agent said there is unknown", origin.line))

    def unread_reply(self) -> int | None:
        """The line of an assistant part holding text that was not read, when it comes
        in or after the message of the agent's last words read (or there are none): the
        reply may be there, so the response is unknown, never the words before it."""
        unread = self.words_unread_at
        start = self.last_message.get("line", 0) if self.last_text else 0
        return unread if unread is not None and unread >= start else None

    def unstreamed(self) -> None:
        """The blocks stream events started that no assistant record holds whole
        (``claude_partial``): a call there is not read, so the run's calls are
        incomplete; words there may be the agent's last, so what it said there is unknown."""
        for kind, origin in self.partial.not_whole(self._held):
            if kind == "call":
                self.problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, "this call, streamed but never "
                                             "printed whole, is not read: no check over the run's calls can be "
                                             "decided", origin.line))
            else:
                self.words_unread(origin, "this text, streamed but never printed whole", None, surely=True)

    def _held(self, key: str | None) -> tuple[int, int]:
        """How many calls and texts the assistant message ``key`` holds whole."""
        state = self.messages.get(key) if key is not None else None
        whole = Counter(kind for kind, _ in state["seen"]) if state is not None else Counter()
        return sum(whole[kind] for kind in _CALL_BLOCKS), whole["text"]

    # --- user -----------------------------------------------------------------------

    def user(self, origin: Origin, rec: dict, message: dict) -> None:
        content = message.get("content")
        if isinstance(content, str):
            self.user_text(origin, rec, content)
            return
        if not isinstance(content, list):
            self.unread(origin, "this message's content, which is no list", content)
            self.turn_unread(origin, rec, "this user message's content, which is no list", content)
            return
        for part in content:
            if isinstance(part, dict) and part.get("type") == "tool_result":
                self.tool_result(origin, rec, part)
            elif isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                self.user_text(origin, rec, part["text"])
            else:
                self.unread(origin, "a part of this user message", part)
                self.turn_unread(origin, rec, "a part of this user message", part,
                                 surely=isinstance(part, dict) and part.get("type") == "text")
                if isinstance(part, dict) and part.get("type") in claude_requests.ASKED_PARTS and not rec.get("isMeta"):
                    self.ask(origin.line)  # a request with no words: a screenshot pasted

    def turn_unread(self, origin: Origin, rec: dict, what: str, value: Any, surely: bool = False) -> None:
        """A part of a user's record not read that holds text (``may_say``, or
        ``surely``): what the user (or the harness) said there is unknown, so no check
        over the harness text can be decided. A user's turn so lost is the eval prompt
        all the same (no later turn takes its place), and a request the agent owes an
        answer to, until it takes its turn."""
        said = self.harness_unread(origin, what, value, surely)
        if said and not rec.get("isMeta") and not rec.get("isCompactSummary"):
            self.prompted = True
            self.ask(origin.line)

    def given(self, origin: Origin, rec: dict, given: claude_attachments.Given) -> None:
        """Text an attachment gave the agent (a hook's context or output): harness text at
        its line; in a shape not read, it leaves the harness text unknown."""
        if given.text is not None and not (given.refused and self.told(given.text)):
            entry = Text(given.kind, "", given.text, origin)
            self.entries.append(entry)
            if given.refused:
                self.refusals.append((self.last_said, entry))
        elif given.text is None:
            self.harness_unread(origin, given.what, given.value, surely=given.surely)
        self.unread(origin, "this attachment record", rec)

    def harness_unread(self, origin: Origin, what: str, value: Any, surely: bool = False) -> bool:
        """Whether a part of a record of the user or the harness that is not read holds
        text (``may_say``, or ``surely``): then no check over the harness text can be
        decided (``harness-may-be-missing``)."""
        if not (surely or may_say(value)):
            return False
        self.problems.append(Problem(HARNESS_MAY_BE_MISSING, origin.source, f"{what}, not read, holds text of the "
                                     "user or the harness: no check over the harness text can be decided",
                                     origin.line))
        return True

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
            self.compacted(origin)
        elif text.lstrip().startswith("<system-reminder>"):
            kind = R.SYSTEM_REMINDER
        elif rec.get("isMeta") or "-hook>" in text:
            kind = R.HOOK if "hook" in text else R.SYSTEM
            if claude_requests.stop_refused(text):  # the agent was sent back to work: it owes a reply
                self.ask(origin.line)
        elif claude_requests.command_record(text):
            kind = R.SYSTEM
            self.command(origin, text)
        elif claude_requests.task_notification(rec, text):  # the harness's notice, asking nothing
            kind = R.SYSTEM
        elif not self.prompted:
            kind, self.prompted = R.EVAL_PROMPT, True
            self.ask(origin.line)
        else:
            kind = R.USER
            if not claude_requests.interrupted(text):
                self.ask(origin.line)
        entry = Text(kind, "", text, origin)
        self.entries.append(entry)
        if kind == R.HOOK and rec.get("isMeta") and claude_requests.stop_refused(text):
            self.refused(entry)

    def ask(self, line: int, command: bool = False) -> None:
        """A request at ``line`` the agent owes an answer to (a slash command's may turn
        out to be one Claude Code ran itself, when what it printed follows)."""
        self.asked, self.requested = (line, command), line

    def answers_earlier_turn(self) -> bool:
        """Whether the agent's last words came before the last request while it took
        that turn (a message of it came after the request) saying nothing and making no
        call: a message of thinking alone, or of streaming placeholders. Those words
        answer an earlier turn."""
        return (self.asked is None and self.last_said > self.requested and bool(self.last_text)
                and self.last_text[-1].origin.line < self.requested
                and not (self.called_since or self.last_message.get("called")))

    def command(self, origin: Origin, text: str) -> None:
        """A slash command's record: one that may be a prompt asks the agent, as a
        request does, until the agent answers or what the command printed shows that
        Claude Code ran it itself (``asked``)."""
        if claude_requests.command_printed(text):
            self.asked = None if self.asked is not None and self.asked[1] else self.asked
        elif claude_requests.command_may_ask(text):
            self.ask(origin.line, command=True)

    def compacted(self, origin: Origin) -> None:
        """A compaction (its boundary, or its summary): met before any work of the agent,
        it opens a continuation of work done before it, which this file does not hold
        (an earlier session file, an earlier run of the resumed session), so the calls
        of that work are unknown. After the work it summarises, it changes nothing."""
        worked = self.last_said or self.prompted or any(isinstance(entry, Call) for entry in self.entries)
        if not worked and not self.continued:
            self.continued = True
            self.problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, "this session opens with a "
                                         "compaction: the work before it is not in this file, so the run's calls "
                                         "are incomplete", origin.line))

    def tool_result(self, origin: Origin, rec: dict, part: dict) -> None:
        call_id = part.get("tool_use_id")
        call_id = call_id if isinstance(call_id, str) else None
        known, position = self._waiting(call_id)
        if position is None:
            reason = "its call is missing" if not known else "its call already has a result"
            self.problems.append(Problem("orphan-result", origin.source,
                                         f"tool_result for {call_id!r}: {reason}; skipped", origin.line))
            if known:
                self.answered_again(known[-1], rec, part, origin)
            else:
                R.unplaced_answer(self.problems, origin, call_id)
            return
        call = R.call_at(self.entries, position)
        structured = claude_results.structured(rec)
        result = claude_results.result_value(part.get("content"), structured, call.tool)
        status, unsure = claude_results.status(part)
        unread = call.unread
        if unsure:
            self.problems.append(Problem("status-unknown", origin.source, f"{unsure}: its call's status is unknown",
                                         origin.line))
            unread = unread | {"status"}
        if claude_results.persisted(part.get("content")):  # the tool's output is in a file beside the session, not here
            self.problems.append(Problem("value-cut", origin.source, "the tool's output was too large for the "
                                         "session: Claude Code kept it in a file beside it (tool-results/), and "
                                         "this answer holds a preview only, so its call's return is unknown",
                                         origin.line))
            unread = unread | {"return"}
        if claude_results.cut(part.get("content")):  # the output's head alone: the rest is kept nowhere
            self.problems.append(Problem("value-cut", origin.source, "Claude Code cut the tool's output before it "
                                         "gave it to the agent ([N lines truncated]), and the lines it cut are kept "
                                         "nowhere, so its call's return is unknown", origin.line))
            unread = unread | {"return"}
        if claude_results.parts_unread(part.get("content")):  # words kept as "[its type]", or dropped
            self.problems.append(Problem("unread-text", origin.source, "a part of this answer holds text in a shape "
                                         "not read: its call's return is unknown", origin.line))
            unread = unread | {"return"}
        self.entries[position] = replace(call, result=result, status=status, result_origin=origin, unread=unread)
        if isinstance(structured, dict):
            self.results[position] = structured

    def answered_again(self, position: int, rec: dict, part: dict, origin: Origin) -> None:
        """A second, different answer to a call: which one counts is not said, so the
        call's status and return are unknown (the same answer repeated changes nothing)."""
        call = R.call_at(self.entries, position)
        status, _ = claude_results.status(part)
        value = claude_results.result_value(part.get("content"), claude_results.structured(rec), call.tool)
        if (status, value) != (call.status, call.result):
            R.answered_again(self.entries, position, self.problems, origin)


def _synthetic(rec: dict, message: dict) -> bool:
    """Whether an assistant record is one Claude Code wrote itself, not the model: it
    names the model ``<synthetic>``, and flags an API error ``isApiErrorMessage``."""
    return message.get("model") == "<synthetic>" or rec.get("isApiErrorMessage") is True


def _call_ids(value: Any) -> frozenset[str]:
    """The ids of the tool_use blocks anywhere in ``value`` (a progress record's data)."""
    return frozenset(item["id"] for item in nested(value) if isinstance(item, dict)
                     and item.get("type") == "tool_use" and isinstance(item.get("id"), str))


def _block_key(block: dict) -> tuple:
    """What tells a block repeated on another line of a split message: the whole
    block (two calls with no id, or one id with another tool, are two calls)."""
    return (str(block.get("type")), repr(sorted((k, repr(v)) for k, v in block.items())))
