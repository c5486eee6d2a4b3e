"""What the records of one agent of a Claude Code session mean (``claude_code`` puts
a session together: its main agent, its subagents, the numbers).

- ``user``/``assistant`` records hold a ``message``; other record types (queue
  operations, summaries, snapshots, progress) are not messages and are skipped;
  an unknown type is reported and skipped. ``system`` records with text are
  harness text, and so are Claude Code's reports of an API request it retries
  (``claude_retries``), and so are the attachments whose text Claude Code gives the agent (a
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
  answer is a ``..._tool_result`` block of the same message. A call's answer (a
  ``tool_result`` of a user-role message) and the user's and the harness's words are
  ``claude_user``'s.
- An assistant message Claude Code wrote in the model's place (model ``<synthetic>``:
  an API error, a usage limit) is harness text: it is never the agent's words nor its
  reply.

What an assistant record says is read by ``claude_assistant``, what a user record
says by ``claude_user``; the reader here takes each record to its place.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers import claude_attachments, claude_hooks, claude_requests, claude_results
from referee.engine.run.importers import claude_retries, claude_stream
from referee.engine.run.importers.claude_assistant import CALL_BLOCKS, AssistantRecords, blocks_of
from referee.engine.run.importers.claude_at_work import went_on_after
from referee.engine.run.importers.claude_partial import Partial
from referee.engine.run.importers.claude_unread import holds_message
from referee.engine.run.importers.claude_user import answers_in
from referee.engine.run.importers.record import Call, Origin, Text
from referee.engine.run.importers.source import holds_call, holds_call_as_text, nested
from referee.engine.run.model import Problem

# What Claude Code 1.x and 2.x write besides messages: records that are none, looked into
# for a call all the same (a progress record's data mirrors a subagent's transcript, read from there).
_SKIPPED_TYPES = frozenset({"summary", "queue-operation", "file-history-snapshot", "progress",
                            "custom-title", "tag", "agent-name", "result", "attachment", "last-prompt", "mode",
                            "pr-link", "permission-mode", "atis-latch", "ai-title", "cost-state", "bridge-session",
                            "rate_limit_event", "prompt_suggestion"})  # the last two: stream-json's
_HOOK = re.compile(r"\bhook\b", re.I)


class Reader(AssistantRecords):
    """Reads the records of one agent (the main one or a subagent) in order: what the
    assistant said in ``AssistantRecords``, what the user and the harness said in
    ``UserRecords``, and what the records, all read, leave unknown (``ended``)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__()
        self.problems = problems
        self.entries: list[Call | Text] = []
        self.messages: dict[str, dict] = {}  # message.id -> {"line", "usage", "seen"}
        self.calls: dict[str, list[int]] = {}  # tool_use_id -> positions in entries
        # lines not read while calls were open: (where, what, the calls then open); ``lines_unread``
        self.unread_lines: list[tuple[Origin, str, list[int]]] = []
        self.last_text: list[Text] = []
        self.last_message: dict = {}  # the state of the message last_text is of
        self.called_since = False  # whether a tool_use came after last_text's message
        self.last_said = 0  # the line of the last assistant record read
        self.words_unread_at: int | None = None  # the line of the last assistant part not read that holds text
        self.cut_at: int | None = None  # the line of the last message that ended in a call no line holds
        self.prompted = False
        # the line of the last request the agent has not answered yet, and whether it is a command's
        self.asked: tuple[int, bool] | None = None
        self.requested = 0  # the line of the last request, answered or not
        self.ended_in_error: int | None = None  # a request's line, when an API error ended its turn, the agent silent
        self.interrupted_at: int | None = None  # a request's line, when the user interrupted it, the agent silent
        self.continued = False  # whether it opened with a compaction of work not held here
        self.times: list[str] = []
        self.results: dict[int, dict] = {}  # entry position -> structured toolUseResult
        # progress holding a call: (its Task's tool_use id, where, the ids of the calls it shows)
        self.progress: list[tuple[Any, Origin, frozenset[str]]] = []
        self.partial = Partial(CALL_BLOCKS)  # the messages stream_event records started
        self.stood_in: set[Origin] = set()  # where Claude Code wrote in the model's place: a turn ended there

    def record(self, source: str, line: int, rec: dict) -> None:
        kind = rec.get("type")
        if isinstance(rec.get("timestamp"), str):
            self.times.append(rec["timestamp"])
        message = rec.get("message")
        if (changed := claude_hooks.changed_input(rec)) is not None:
            self.input_changed(Origin(source, line), changed)
        if kind in ("assistant", "user") and isinstance(message, dict):
            origin = Origin(source, line)
            if kind == "assistant" and _synthetic(rec, message):
                self.synthetic(origin, message, _api_error(rec, message))
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
        elif kind == "system" and (retried := claude_retries.retry_words(rec)) is not None:
            # Claude Code's report of an API request that failed: harness text, never skipped
            if retried:
                self.entries.append(Text(R.SYSTEM, "", retried, Origin(source, line)))
            self.unread(Origin(source, line), "this system record", rec)
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
            self.unread(Origin(source, line), "this progress record, beside its data",
                        {key: value for key, value in rec.items() if key != "data"})
        elif kind == "result" and claude_stream.is_stream_record(rec):
            self.result(Origin(source, line), rec)
        elif isinstance(kind, str) and kind in _SKIPPED_TYPES:
            self.unread(Origin(source, line), f"this {kind} record", rec)
        else:
            shown = kind if isinstance(kind, str) else type(kind).__name__
            self.problems.append(Problem("unknown-record", source, f"record of unknown type {shown!r}; skipped", line))
            if holds_call(rec) or holds_call_as_text(rec):
                self.problems.append(Problem(CALLS_MAY_BE_MISSING, source, "this record, skipped, holds a tool_use: no "
                                             "check over the run's calls can be decided", line))
            for answer in answers_in(rec):  # a call's answer, skipped with it: its status is not read
                self.answer_not_read(Origin(source, line), answer)
            if kind == "assistant":  # its message is no object: whatever the agent said in it is not read
                self.words_unread(Origin(source, line), "this assistant record's message, which is no object", message)
            if kind == "user":  # its message is no object: whatever the user said in it is not read
                self.turn_unread(Origin(source, line), rec, "this user record's message, which is no object", message)
                self.answers_unknown(Origin(source, line), "this user record's message, which is no object")
            elif kind != "assistant" and holds_message(rec):  # a turn of the user, or a reply, for all it says
                what = f"this record of unknown type {shown!r}"
                self.harness_unread(Origin(source, line), what, rec, surely=True)
                self.words_unread(Origin(source, line), what, rec, surely=True)

    def result(self, origin: Origin, rec: dict) -> None:
        """A stream-json result record: what it says of an error is Claude Code's words,
        harness text (``claude_stream.error_words``); the rest is looked into for a
        call, as a skipped record is."""
        words, unread = claude_stream.error_words(rec)
        # an API error is written in the model's place too, and the result names it again: said once
        said = {entry.text.strip() for entry in self.entries if isinstance(entry, Text) and entry.kind != "agent"}
        self.entries.extend(Text(R.SYSTEM, "", text, origin) for text in words if text.strip() not in said)
        if unread:
            self.harness_unread(origin, "what this result record says of the error, which is no text", unread,
                                surely=True)
        self.unread(origin, "this result record", rec)

    def ended(self) -> None:
        """What the records, all read, leave unknown: calls and words streamed but never
        printed whole (``_unstreamed``), and messages that ended in a call no line holds
        (``_calls_not_held``). Called once, after the last record of a session or subagent."""
        self.lines_unread()
        self._unstreamed()
        self._calls_not_held()
        self._answers_lost()

    def _answers_lost(self) -> None:
        """Each call the agent went on after with no answer read (``went_on_after``):
        its answer lies in a line the file lost, so its status and return are unknown,
        never ``no_result`` (``no calls with status error`` passed on a Bash call whose
        failed answer was lost)."""
        for position in went_on_after(self):
            call = R.call_at(self.entries, position)
            self.entries[position] = replace(call, unread=call.unread | {"status", "return"})
            self.problems.append(Problem("status-unknown", call.origin.source, "no record answers this call, and the "
                                         "agent went on after it: Claude Code answers every call before the agent's "
                                         "next step, so its answer is in a line this file lost; its status and "
                                         "return are unknown", call.origin.line))

    def _unstreamed(self) -> None:
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

    def _calls_not_held(self) -> None:
        """A message whose stop reason says it ended in a call (``tool_use``) while no
        line of it read holds one: the line with the call is not in the file (a
        session cut short, or trimmed), so the run's calls are incomplete, and the
        agent went on working after the words of that message: they are no reply
        (``reply_cut``)."""
        for key, state in self.messages.items():
            origin = state.get("ends_in_call")
            if origin is None or self._held(key)[0]:
                continue
            self.cut_at = max(origin.line, self.cut_at or 0)
            self.problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, "this message ended in a tool call "
                                         "(stop_reason tool_use) that no line of this file holds: no check over "
                                         "the run's calls can be decided", origin.line))

    def reply_cut(self) -> int | None:
        """The line of a message that ended in a call the file does not hold, when it
        is the message of the agent's last words read or comes after it: the agent
        was at work, and whatever it said after is not here, so the response is
        unknown (a reply with a call the file holds is none: ``reply``)."""
        start = self.last_message.get("line", 0) if self.last_text else 0
        return self.cut_at if self.cut_at is not None and self.cut_at >= start else None

    def _held(self, key: str | None) -> tuple[int, int]:
        """How many calls and texts the assistant message ``key`` holds whole."""
        state = self.messages.get(key) if key is not None else None
        whole = Counter(kind for kind, _ in state["seen"]) if state is not None else Counter()
        return sum(whole[kind] for kind in CALL_BLOCKS), whole["text"]


def _api_error(rec: dict, message: dict) -> bool:
    """Whether a message Claude Code wrote in the model's place tells of an API error:
    flagged ``isApiErrorMessage``, or (as Claude Code 1.0 wrote a lost connection,
    unflagged) its text opening with "API Error"."""
    if rec.get("isApiErrorMessage") is True:
        return True
    content = blocks_of(message)
    return isinstance(content, list) and any(isinstance(block, dict) and isinstance(block.get("text"), str)
                                             and block["text"].startswith("API Error") for block in content)


def _synthetic(rec: dict, message: dict) -> bool:
    """Whether an assistant record is one Claude Code wrote itself, not the model: it
    names the model ``<synthetic>``, and flags an API error ``isApiErrorMessage``."""
    return message.get("model") == "<synthetic>" or rec.get("isApiErrorMessage") is True


def _call_ids(value: Any) -> frozenset[str]:
    """The ids of the tool_use blocks anywhere in ``value`` (a progress record's data)."""
    return frozenset(item["id"] for item in nested(value) if isinstance(item, dict)
                     and item.get("type") == "tool_use" and isinstance(item.get("id"), str))
