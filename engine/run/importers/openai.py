"""OpenAI chat-completions message lists: what the messages mean.

Where a source's conversations and messages lie (a document, JSON lines, tau-bench's
results) is ``openai_sources``'s; what a message's content says (its text, words of a
shape not read) is ``openai_content``'s; what kind of item lies beside the messages (a
Responses API reasoning or tool item, a call where none is read) is ``openai_items``'s;
the steps read as neither a call nor a reply (a call written as text, a demonstration)
are ``openai_steps``'s; the tool calls and the tool messages that answer them are
``openai_calls``'s; an assistant message's words as a reply or a note, and what the
end of a run leaves unknown, are ``openai_replies``'s; this module reads the messages
of one conversation.

- ``system``/``developer`` messages and ``user`` turns are harness text (the first
  user turn is the eval prompt).
- A user turn whose calls the user asked for itself (tau2-bench's telecom user
  simulator, ``"requestor": "user"``, working its own phone) and the tool messages
  answering them are harness text too: the user's steps, never the agent's calls.
- An assistant message's ``tool_calls`` are calls; each is paired with the
  ``tool`` message of the same ``tool_call_id`` (legacy ``function_call`` and
  ``function`` messages by name); a Responses API ``function_call`` or
  ``custom_tool_call`` item is a call too, paired with the output item of its
  ``call_id``. ``arguments`` is a JSON string: invalid JSON is
  kept as text and reported, and its fields are unknown (a check on them is an
  ERROR, never "absent"). A call never answered has status ``no_result``; the
  format has no error flag, so an answered call is an error when its tool
  message carries a producer's flag or ``--error-when`` finds its text, else a
  success, and the run says when that was assumed (``statuses``).
- Assistant text sent with a tool call is an agent note, not a reply the user
  saw; so is text a harness took a command from (a user turn answers it, as
  mini-swe-agent's ``<returncode>0</returncode>`` does). The other assistant
  messages are the replies, and make up the response.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers.record import Conversation, Origin, Text
from referee.engine.run.importers.openai_calls import SUBMITS, value_kind
from referee.engine.run.importers.openai_call_shapes import answer_item, call_item
from referee.engine.run.importers.openai_content import (audio_unread, holds_reply, holds_text, holds_words,
                                                         names_a_tool, parts_unread, text_of, transcript_of,
                                                         unread_member, words_unread)
from referee.engine.run.importers.openai_replies import Replies
from referee.engine.run.importers.openai_threads import in_time_order, is_thread_message
from referee.engine.run.importers.openai_steps import Locate, found_in, orchestrator_greeting
from referee.engine.run.importers.openai_items import (content_calls, holds_other_answer, holds_other_call,
                                                       is_call_item, is_compaction, is_reasoning, is_tool_item)
from referee.engine.run.importers.source import holds_call, may_hold
from referee.engine.run.importers.statuses import ErrorWhen
from referee.engine.run.importers.text_calls import (answer_markup, earlier_trials, observation, react_action,
                                                    react_action_at_end)
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem

FORMAT = "openai"
_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
_SAID = ("content", "refusal")  # the members of an assistant message that hold its words, in the order read
# How a user simulator ends a conversation, asking nothing more (tau-bench's ###STOP###;
# tau2-bench's also a transfer and a request out of scope): no reply is to follow
_CLOSINGS = ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###")



def looks_like(value: Any) -> bool:
    """True for a message list, a ``{"messages": [...]}`` (or tau-bench ``{"traj": [...]}``,
    or a SWE-agent trajectory's ``{"history": [...], "trajectory": [...]}``) object, a
    list of those, or one message."""
    if isinstance(value, dict) and any(isinstance(value.get(k), list) for k in ("messages", "traj")):
        return True
    if isinstance(value, dict) and all(isinstance(value.get(k), list) for k in ("history", "trajectory")):
        return True
    if isinstance(value, list):
        return bool(value) and (all(is_message(m) for m in value[:5]) or all(looks_like(m) for m in value[:1]))
    return is_message(value)


def is_message(value: Any) -> bool:
    """A JSON value that is one message (a role the format has; no Claude Code record)."""
    return isinstance(value, dict) and _role(value) is not None and "sessionId" not in value


def _role(message: Any) -> str | None:
    """The message's role when it is one of the format's roles, else None."""
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) and role in _ROLES else None


# --- reading messages -------------------------------------------------------------------


UNREAD = object()  # a message that could not be read (already reported where it was met)


def read_messages(messages: Iterable, locate: Locate, name: str, problems: list[Problem], label: str,
                  numbered: bool = False, error_when: ErrorWhen | None = None,
                  reply_unread: Origin | None = None, tools: frozenset[str] = frozenset(),
                  end_unmarked: bool = False, awaits_completion: bool = False) -> Conversation:
    """The conversation of ``messages`` (``(index, message)`` pairs when ``numbered``),
    read one at a time: a generator is never held whole. ``reply_unread`` is where a
    reply lies that is not among the messages (the response is then unknown);
    ``tools``, the names of the tools its request declares; ``end_unmarked``: the
    source marks no end (one message per line), so it may be cut where it ends;
    ``awaits_completion``: the messages are a logged request whose completion is not
    beside them."""
    reader = _Reader(locate, name, problems, error_when)
    reader.end_unmarked = end_unmarked
    reader.awaits_completion = awaits_completion
    reader.reply_unread = reply_unread
    reader.declared.update(tools)
    pairs = messages if numbered else enumerate(messages)
    for index, message in in_time_order(pairs, UNREAD, reader.unordered):
        if message is not UNREAD:
            reader.message(index, message)
        else:
            reader.may_answer(reader.start(index), "an element of the message list")
    reader.finish()
    reader.answers_unread()
    options = (("error_when", error_when.text),) if error_when is not None else ()
    return Conversation(FORMAT, (name,), tuple(reader.entries), reader.response(),
                        problems=tuple(reader.problems) + reader.statuses.problems(), label=label, options=options)


class _Reader(Replies):
    def __init__(self, locate: Locate, name: str, problems: list[Problem], error_when: ErrorWhen | None) -> None:
        super().__init__(locate, name, problems, error_when)
        self.prompted = False
        self.threaded = False  # an Assistants API thread message was met (said once)
        # the replies of the last assistant message when turns that answer nothing came after it: a
        # harness's answer to a command they wrote may still come (a call item no longer belongs to them)
        self.awaiting: list[int] = []
        self.acted = False  # the last assistant message wrote a ReAct call, which a user turn after it may answer
        self.submitted = False  # the last assistant message wrote mini-swe-agent's submit command

    def message(self, index: int, message: Any) -> None:
        role = _role(message)
        held, self.step_replies = self.step_replies, []
        acted, self.acted = self.acted, False
        awaiting, self.awaiting = self.awaiting, []
        if role is None:
            self.no_role(index, message, held, acted, awaiting)
            return
        if message.get("is_demo") is True or (index == 0 and orchestrator_greeting(message)):
            self.demonstration(index, message)
            return
        if self.users_own(index, message, role):
            # the user at work on its own side answers nothing the agent wrote: as a user's words do
            self.awaiting, self.acted = held + awaiting, acted
            return
        if is_thread_message(message) and not self.threaded:
            self.threaded = True
            self.warn(CALLS_MAY_BE_MISSING, self.start(index), f"message {index + 1} is an Assistants API thread "
                      "message: the tool calls of its runs are in their run steps, which this importer does not "
                      "read, so no check over the run's calls can be decided")
        if holds_other_call(message, role):
            self.warn(CALLS_MAY_BE_MISSING, self.start(index), f"message {index + 1} holds a tool call where this "
                      "importer reads none (in its content, or under another name or role): no check over the run's "
                      "calls can be decided")
        if role not in ("tool", "function") and holds_other_answer(message):
            self.warn(CALLS_MAY_BE_MISSING, self.start(index), f"message {index + 1} holds a tool's answer where this "
                      "importer reads none (a tool_result block in its content): the call it answers is left "
                      "unanswered or is not read, so no check over the run's calls can be decided")
        self.sides(index, message, role)
        if role == "assistant":
            read = len(self.entries)
            self.assistant(index, message, acted, held + awaiting)
            if len(self.entries) > read:  # words or a call answer the request; a message of neither leaves it open
                self.asked = None
        elif role in ("tool", "function"):
            where = self.text_origin(index, message.get("content"))  # where its answer is, and the agent last at work
            self.tool(index, message, role, where)
            self.at_work = where
        elif self.harness(index, message, role, acted):
            # the replies of the message before held the command this turn answers:
            # they were sent with it, as words beside a tool call are
            self.sent_with_call(held + awaiting)
            self.last_action = None
        else:
            # a turn that answers nothing (the user's words, a harness's reminder) comes
            # between: the command the last assistant message wrote may still be answered
            self.awaiting, self.acted = held + awaiting, acted

    def no_role(self, index: int, message: Any, held: list[int], acted: bool, awaiting: list[int]) -> None:
        """An element of no role the format has: a Responses API item, or what is skipped
        (said where it starts; a turn with a role is cited at its text, not its start).
        ``held``, ``acted`` and ``awaiting`` are the reader's before the element."""
        start = self.start(index)
        if is_reasoning(message):
            # reasoning between a message item and its call changes nothing
            self.step_replies, self.acted, self.awaiting = held, acted, awaiting
            self.reasoning(index, message, start)
            return
        if is_call_item(message):
            self.sent_with_call(held)
            self.last_action = None
            self.asked = None  # the agent answered with a call
        if self.tool_item(index, message, start):
            return
        if isinstance(message, dict) and message.get("type") == "item_reference":
            self.reference(index, start)
            return
        if is_compaction(message):
            self.compaction(index, start)
            return
        ended = self.exit_record(index, message)
        if ended is not None:
            # after the submit command it is that command's answer: the run ends on the agent's work
            self.at_work = self.text_origin(index, message["content"]) if ended else self.at_work
            return
        given = message.get("role") if isinstance(message, dict) else message
        shown = repr(given) if isinstance(given, str) else type(given).__name__
        what = "no role" if given is None else f"unknown role {shown}"
        self.warn("unknown-message", start, f"message {index + 1} has {what}; skipped")
        self.may_answer(start, f"message {index + 1}")
        if is_tool_item(message):  # a call or a tool's answer: the agent is at work
            self.at_work = start
        # it may be (or hold) the agent's reply; a tool's call or answer holds the tool's words; words
        # written as a string (a JSON line that is one) are no one's in particular
        words = holds_words(message) if isinstance(message, dict) else holds_text(message)
        if holds_reply(message) or (words and not is_tool_item(message)):
            self.response_unknown("unread-text", start, f"message {index + 1}, skipped, holds text that may be "
                                  "a reply: the response is unknown")
        # and a turn of the user or the harness, unless it is a tool's (an item, a role naming one)
        if words and not is_tool_item(message) and not names_a_tool(given):
            self.warn(HARNESS_MAY_BE_MISSING, start, f"message {index + 1}, skipped, holds text that may be the "
                      "harness's (a turn of the user): no check over the harness text can be decided")
        if (holds_call(message) or may_hold(json.dumps(message, ensure_ascii=False, default=str))
                or names_a_tool(given)):
            self.warn(CALLS_MAY_BE_MISSING, start, f"message {index + 1}, skipped, may hold a tool call "
                      "(of a format this importer does not read): no check over the run's calls can be decided")

    def tool_item(self, index: int, item: Any, start: Origin) -> bool:
        """Whether the element is a Responses API call item (``function_call``,
        ``custom_tool_call``) or an item that answers one, read as a call or its answer;
        the agent is at work after either. Other tool items are not read."""
        member = call_item(item)
        if member is not None:
            self.item_call(index, item, member)
        elif answer_item(item):
            self.item_answer(index, item)
        else:
            return False
        self.at_work = start
        return True

    def harness(self, index: int, message: dict, role: str, acted: bool) -> bool:
        """A user, system or developer turn: harness text (the first user turn is the
        eval prompt). Words it holds in a shape not read (a UI message's ``parts``, as
        the AI SDK 5 gives them with no content; a LlamaIndex message's ``blocks``;
        content that is one object) leave the
        harness text unknown, and a user turn so lost is the eval prompt all the same:
        no later turn takes its place. True when the turn is a harness's answer to a
        command it took from the agent's text (``acted``: a ReAct call, written in the
        message before, is answered by a turn that opens with ``Observation:``, the
        user's or the system's)."""
        content = message.get("content")
        lost = words_unread(content) or parts_unread(message)
        if lost:
            self.warn(HARNESS_MAY_BE_MISSING, self.start(index), f"message {index + 1} ({role}) holds text in a shape "
                      "this importer does not read (its parts or blocks, or content of another shape): no check over "
                      "the harness text can be decided")
        text = text_of(content)
        answer = found_in(text, content, answer_markup) if role == "user" else None
        if answer is None and acted:  # a harness may write a ReAct call's answer as a system turn too
            answer = found_in(text, content, observation)
        if answer is not None or role == "user":
            self.at_work = self.text_origin(index, content) if answer is not None else None
        if answer is not None:
            shown = answer if len(answer) <= 40 else answer[:40] + "..."  # it may quote the command, or an exception
            self.warn(CALLS_MAY_BE_MISSING, self.text_origin(index, content), f"message {index + 1} is a harness's "
                      f"answer to a command it took from the agent's text ({shown!r}), which this importer does not "
                      "read as a call: no check over the run's calls can be decided")
        if role == "user":
            self.retried(index, text, content)
        if text.strip():
            kind = R.SYSTEM if role != "user" else (R.USER if self.prompted else R.EVAL_PROMPT)
            self.entries.append(Text(kind, "", text, self.text_origin(index, content)))
        self.prompted = self.prompted or (role == "user" and (lost or bool(text.strip())))
        if role == "user":
            closes = answer is not None or self.closes(content, text, bool(lost))
            self.asked = None if closes else self.text_origin(index, content)
        return answer is not None

    def retried(self, index: int, text: str, content: Any) -> None:
        """A user turn that is ToolBench's prompt to try a state again lists calls its
        earlier trials made, which ran: the list (the chain that ended the run) does not
        hold them, so the run's calls are unknown."""
        if found_in(text, content, earlier_trials) is not None:
            self.warn(CALLS_MAY_BE_MISSING, self.text_origin(index, content), f"message {index + 1} is ToolBench's "
                      "prompt to try a state again, which lists calls earlier trials made that this list does not "
                      "hold: no check over the run's calls can be decided")

    def closes(self, content: Any, text: str, lost: bool) -> bool:
        """Whether a user turn asks nothing the agent is to answer: it holds nothing, a
        user simulator's closing token, or mini-swe-agent's submission (after the
        command that submits). Words not read may be a request; so may an image, a
        question spoken or a file, which hold no words."""
        if lost:
            return False
        return _holds_nothing(content) or any(token in text for token in _CLOSINGS) or self.submitted

    def assistant(self, index: int, message: dict, acted: bool, before: list[int]) -> None:
        """An assistant message (``acted``: one before it wrote a ReAct call no turn has
        answered yet; ``before``: where that message's replies are among the entries)."""
        calls = message.get("tool_calls")
        legacy = message.get("function_call")
        for key, value, kind in (("tool_calls", calls, list), ("function_call", legacy, dict)):
            if value is not None and not isinstance(value, kind):
                self.unread_call(self.locate(index, key, 0, f"/{key}"), f"{key} is {value_kind(value)}, not "
                                 f"{'a list' if kind is list else 'an object'}; not read")
        calls = calls if isinstance(calls, list) else []
        # a call among the content's parts (not read: the run's calls are unknown) is sent
        # with the text all the same
        sent_with_call = bool(calls) or isinstance(legacy, dict) or content_calls(message.get("content"))
        said = [(member, text_of(message.get(member))) for member in _SAID]
        first = next((member for member, text in said if text), "content")  # where its words are cited
        # a call the model wrote as text: not read, but the message made one all the same
        sent_with_call = self.calls_as_text(index, said[0][1], message.get("content")) or sent_with_call
        sent_with_call = self.action_parsed(index, message, sent_with_call) or sent_with_call
        # the scratchpad going on in the assistant's turn: the call it answers was sent with the words before
        if acted and self.observation_written(index, said[0][1], message.get("content")):
            self.sent_with_call(before)
            sent_with_call = True
        self.acted = found_in(said[0][1], message.get("content"), react_action) is not None
        # mini-swe-agent's submit command: the user turn after it holds the submission, no request
        self.submitted = any(command in said[0][1] for command in SUBMITS)
        # calls kept apart from the text (not read): the text is sent with them, but words
        # not read there may still be the reply after them (words_lost is told as before)
        merged = not sent_with_call and holds_other_call(message, "assistant")
        if merged and any(text.strip() for _, text in said):
            self.steps_merged(index, self.text_origin(index, message.get(first), first))
        audio = message.get("audio")
        if any(words_unread(message.get(key)) for key in _SAID):
            self.words_lost(self.text_origin(index, message.get(first), first), f"message {index + 1} holds text "
                            "in a shape this importer does not read",
                            sent_with_call)
        member = unread_member(message)
        if member is not None:
            self.words_lost(self.locate(index, member, 0, f"/{member}"), f"message {index + 1} holds text in its "
                            f"{member} ({_HOLDERS[member]}) that its content does not", sent_with_call)
        if audio_unread(audio):
            self.words_lost(self.locate(index, "audio", 0, "/audio"), f"message {index + 1} holds audio whose "
                            "transcript is not given as text", sent_with_call)
        self.item_status(index, message, first, sent_with_call)
        self.cut_short(index, message, first)
        not_held = self.call_not_held(index, message, bool(calls) or isinstance(legacy, dict) or sent_with_call)
        sent_with_call = sent_with_call or not_held
        # Content, refusal and an audio reply's transcript may all be given: each is the
        # agent's words, cited where it is.
        for member, text in said:
            if text.strip():
                self.said(text, self.text_origin(index, message.get(member), member), sent_with_call or merged)
        transcript = transcript_of(audio)
        if transcript is not None and transcript.strip():
            self.said(transcript, self.locate(index, "transcript", 0, "/audio/transcript"), sent_with_call or merged)
        for nth, call in enumerate(calls):
            self.call(index, nth, call)
        if isinstance(legacy, dict):
            self.call(index, len(calls), {"function": legacy}, legacy=True)
        if calls or isinstance(legacy, dict) or content_calls(message.get("content")) or not_held:
            self.at_work = self.locate(index, "", 0, "")  # the call's answer, and a reply after it, may follow
        ends = not sent_with_call and found_in(said[0][1], message.get("content"), react_action_at_end) is not None
        self.last_action = (self.text_origin(index, message.get("content")), list(self.step_replies)) if ends else None


# whose words a member not read holds, as the reader tells it
_HOLDERS = {"parts": "a UI message's", "blocks": "a LlamaIndex message's"}


def _holds_nothing(content: Any) -> bool:
    """Content that holds nothing: none, blank text, or a list of parts each blank text."""
    if content is None or isinstance(content, str):
        return not (content or "").strip()
    return isinstance(content, list) and all(isinstance(part, dict) and isinstance(part.get("text"), str)
                                             and not part["text"].strip() and part.keys() <= {"type", "text"}
                                             and part.get("type", "text") in ("text", "input_text")
                                             for part in content)
