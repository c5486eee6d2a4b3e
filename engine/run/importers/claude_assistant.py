"""The assistant's side of an agent's ``Reader`` (``claude_records``): what an assistant
record says. Its text and thinking blocks are the agent's words, merged over the lines
one message is split over; each ``tool_use`` (or server-run) block is a call; a message
Claude Code wrote in the model's place is harness text; a part holding text that is not
read leaves the agent's words unknown (``words_unread``). The reply is its last words.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.engine.run.importers import record as R
from referee.engine.run.importers import claude_results, tokens
from referee.engine.run.importers.claude_user import UserRecords
from referee.engine.run.importers.record import Call, Origin, Text
from referee.engine.run.importers.source import may_say
from referee.engine.run.model import Problem

_PLACEHOLDERS = frozenset({"", "(no content)"})
# The stop reasons of a message the model did not finish: a token limit, the context
# window, a refusal that cut its words (OpenAI's ``length`` and ``content_filter``).
STOPPED_SHORT = frozenset({"max_tokens", "model_context_window_exceeded", "refusal"})
# Calls: the agent's own, and those a server runs within the message (web search, code
# execution, an MCP connector's tools), whose answers follow as "..._tool_result" blocks.
CALL_BLOCKS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
_CALL_MEMBERS = frozenset({"type", "id", "name", "input"})  # what a call block holds that is read


class AssistantRecords(UserRecords):
    """What the assistant said, read into the reader's entries and calls; the state of
    the messages read (``messages``) and of the agent's last words."""

    messages: dict[str, dict]  # message.id -> {"line", "usage", "seen", "texts"}
    words_unread_at: int | None
    ended_in_error: int | None
    stood_in: set[Origin]

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
        stop = message.get("stop_reason")
        if stop == "tool_use":  # the model's message ended in a call
            state["ends_in_call"] = origin
        elif isinstance(stop, str) and stop in STOPPED_SHORT and not state.get("short"):
            state["short"] = True  # said once, on the line of the message that tells it
            self.problems.append(Problem("incomplete", origin.source, f"this message ended with stop_reason {stop!r}: "
                                         "the model stopped before it finished; its words are read as they were "
                                         "given", origin.line))
        content = blocks_of(message)
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

    def synthetic(self, origin: Origin, message: dict, api_error: bool) -> None:
        """A message Claude Code wrote in the model's place (an API error, a usage
        limit, "No response requested."): its text is the harness's, never the agent's
        words nor its reply, and the agent's turn ended there (``stood_in``). Any other
        block is not read, and a call in one makes the run's calls incomplete. An API
        error right after a request (``api_error``) ended the agent's turn for it before
        the agent said or did anything: the request stays unanswered, but nothing of that
        turn is missing from the log."""
        self.stood_in.add(origin)
        if api_error and self.asked is not None:
            self.ended_in_error = self.asked[0]
        content = blocks_of(message)
        if not isinstance(content, list):
            self.unread(origin, "this message's content, which is no list", content)
            return
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
                if block["text"].strip() not in _PLACEHOLDERS:
                    self.entries.append(Text(R.SYSTEM, "", block["text"], origin))
                self.unread(origin, "a text block of a message Claude Code wrote, beside its text",
                            {k: v for k, v in block.items() if k not in ("type", "text")})
            else:
                self.unread(origin, "a block of a message Claude Code wrote", block)

    def reply(self, unknown: bool = False) -> list[Text]:
        """The agent's last words: the texts of its last message with text, unless
        that message made a call or a call came after it. Then the agent was at work
        when its turn ended with no words (the user interrupted it, the harness wrote
        an error in its place, a stream-json result says the run ended): there is no
        reply, and the narration of the call is none. ``unknown``: the caller has said
        why the response is unknown (a log that ends with the agent at work, cut short
        or stopped), so no word is said of an empty one."""
        if not self.last_text or not (self.called_since or self.last_message.get("called")):
            return self.last_text
        if unknown:
            return []
        origin = self.last_text[-1].origin
        self.problems.append(Problem("no-reply", origin.source, "the agent's turn ended with no words after its last "
                                     "call (interrupted, or ended by the harness), and its last text came with a "
                                     "call, or before one: it has no reply, and the response is empty",
                                     origin.line))
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
        elif isinstance(kind, str) and kind in CALL_BLOCKS:  # a type of another JSON type is no str to hash
            self.tool_use(origin, block)
            self.unread(origin, f"a {kind} block, beside its name and input", {k: v for k, v in block.items()
                                                                              if k not in _CALL_MEMBERS})
        elif isinstance(kind, str) and kind.endswith("_tool_result"):
            self.server_result(origin, block)
        else:
            self.unread(origin, f"a block of type {kind!r}", block)
            self.words_unread(origin, f"a block of type {kind!r}", block)

    def server_result(self, origin: Origin, block: dict) -> None:
        """The answer to a call a server ran (web search, code execution, an MCP tool),
        given in the same assistant message: an error when it says so (``is_error``
        true, or content typed ``..._error``), unknown when its flag says neither."""
        call_id = block.get("tool_use_id")
        _, position = self._waiting(call_id)
        if position is None:
            self.problems.append(Problem("orphan-result", origin.source, f"{block.get('type')} for {call_id!r}: "
                                         "no open call has that id; skipped", origin.line))
            R.unplaced_answer(self.problems, origin, call_id)
            return
        content = block.get("content")
        failed, unsure = claude_results.error_flag(block)  # read as a tool_result's flag is
        error = failed or (isinstance(content, dict) and str(content.get("type", "")).endswith("_error"))
        call = R.call_at(self.entries, position)
        unread = call.unread
        if unsure is not None:
            self.problems.append(Problem("status-unknown", origin.source, f"{unsure}: its call's status is unknown",
                                         origin.line))
            unread |= {"status"}
        self.entries[position] = replace(call, result=content, status="error" if error else "success",
                                         result_origin=origin, unread=unread)

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


def blocks_of(message: dict) -> Any:
    """An assistant message's content as blocks: a string is one text block."""
    content = message.get("content")
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def _block_key(block: dict) -> tuple:
    """What tells a block repeated on another line of a split message: the whole
    block (two calls with no id, or one id with another tool, are two calls)."""
    return (str(block.get("type")), repr(sorted((k, repr(v)) for k, v in block.items())))
