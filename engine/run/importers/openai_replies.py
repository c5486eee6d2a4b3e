"""The words of an OpenAI-format assistant message, and how the end of a run leaves them.

Words sent with a tool call (or with a command the harness took from the text) are a
note; the others are replies, and the replies make up the response. Words that could
not be read leave the response unknown when they may be a reply. At the end of a run
a last request of the user no assistant message answers leaves the response unknown,
and a last ReAct call no turn answers leaves the run's calls unknown. Which message
sends its words with a call is ``openai``'s to say.
"""

from __future__ import annotations

from dataclasses import replace

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.openai_calls import ToolCalls
from referee.engine.run.importers.openai_steps import Locate
from referee.engine.run.importers.record import Origin, Text
from referee.engine.run.importers.statuses import ErrorWhen
from referee.engine.run.model import Problem


_UNFINISHED = ("in_progress", "incomplete")  # a Responses API item's statuses before it is completed
_STOPPED_SHORT = ("length", "content_filter")  # a completion's finish reasons when the model did not finish
_ENDED_IN_CALL = ("tool_calls", "function_call")  # a completion's finish reasons when the model made a call


def finish_reason(message: dict) -> str | None:
    """Why the model stopped writing an assistant message, where the record keeps it: on
    the message, on its completion kept beside it (tau2-bench's ``raw_data``, a chat
    completions choice), or in the one choice of the response kept in its ``extra``
    (mini-swe-agent's ``extra.response``, a whole chat completion). None when it is not
    told."""
    raw = message.get("raw_data")
    for holder in (message, raw if isinstance(raw, dict) else {}, _kept_choice(message)):
        reason = holder.get("finish_reason")
        if isinstance(reason, str):
            return reason
    return None


def _kept_choice(message: dict) -> dict:
    """The choice of the chat completion a message keeps in ``extra.response``, when it
    has exactly one; else nothing (several would not say which one the message is)."""
    extra = message.get("extra")
    response = extra.get("response") if isinstance(extra, dict) else None
    choices = response.get("choices") if isinstance(response, dict) else None
    if isinstance(choices, list) and len(choices) == 1 and isinstance(choices[0], dict):
        return choices[0]
    return {}


class Replies(ToolCalls):
    """Where the replies of the message read last are, and what the run ends on."""

    def __init__(self, locate: Locate, name: str, problems: list[Problem], error_when: ErrorWhen | None) -> None:
        super().__init__(locate, name, problems, error_when)
        self.step_replies: list[int] = []  # where the replies of the message read last are among the entries
        # the last assistant message ended on a ReAct call no answer has followed yet: where its
        # text is, and where its replies are among the entries
        self.last_action: tuple[Origin, list[int]] | None = None
        self.asked: Origin | None = None  # the user's last turn, when no assistant message has come after it
        # the last call or tool's answer read, when no reply and no user turn has come after it
        self.at_work: Origin | None = None
        # the source marks no end (JSON lines of one message per line): where it ends may be a cut
        self.end_unmarked = False
        # the messages are a logged request whose completion is not beside them
        self.awaits_completion = False

    def finish(self) -> None:
        """A run that ends on a ReAct call no turn answered (the message wrote it last, as
        a harness stops the model for it): the harness may have run it and stopped
        before writing the answer, or not, so the run's calls are unknown, the message
        is a note sent with a call, and the response is unknown, as for a call written
        in markup. A ReAct call with words after it, or answered, was settled before.

        A run that ends on a request of the user no assistant message answers (a log cut
        short, a logged request whose completion is not beside it): the agent's answer
        to it is not in the record, and the replies before it answer earlier turns, so
        the response is unknown.

        So is a run that ends with the agent at work: its last step a call, or a tool's
        answer no assistant message follows (a log cut short, a logged request, a run
        stopped at its step limit, an answer given through a tool): the agent's final
        reply is not in the record, and the words before it were said while it worked."""
        if self.asked is not None:
            self.response_unknown("no-reply", self.asked, "the conversation ends with a user turn no reply answers: "
                                  "the words before it (if any) answer earlier turns, so the response is unknown")
            self.completion_unseen(self.asked)
        elif self.at_work is not None:
            self.response_unknown("no-reply", self.at_work, "the conversation ends with the agent at work (a call, or "
                                  "a tool's answer, that no assistant message follows): its final reply is not in "
                                  "the record, and the words before it were said while it worked, so the response "
                                  "is unknown")
            self.cut_at_work(self.at_work)
            self.completion_unseen(self.at_work)
        if self.last_action is not None:
            origin, replies = self.last_action
            self.warn(CALLS_MAY_BE_MISSING, origin, "the run ends on a ReAct call (Action: and Action Input:) that "
                      "no Observation: answers: whether the harness ran it is not in the record, so no check over "
                      "the run's calls can be decided")
            self.sent_with_call(replies)
            self.call_as_text = (origin, len(self.entries))
        super().finish()

    def completion_unseen(self, origin: Origin) -> None:
        """A logged request that ends where the model speaks next (a user's turn, or a
        tool's answer, no assistant message follows) asked for a completion that is not
        beside it: the calls it may make are not in the record. A request that ends on
        the model's own words (a prefill) is left as it is read."""
        if self.awaits_completion:
            self.warn(CALLS_MAY_BE_MISSING, origin, "the messages are a logged request (its model and tools or "
                      "sampling parameters beside them) with no completion beside it: the calls the completion "
                      "may make are not in the record, so no check over the run's calls can be decided")

    def cut_at_work(self, origin: Origin) -> None:
        """A source that marks no end and ends with the agent at work may have been cut
        there (a log copied while the agent works, written a message at a time): the
        calls made after its last line are not in it, as a call's answer always goes
        back to the agent. Nothing in such a source tells a run stopped at its step
        limit from one cut so, so no check over the calls can be decided."""
        if self.end_unmarked:
            self.warn(CALLS_MAY_BE_MISSING, origin, "the conversation ends with the agent at work, and one message "
                      "per line marks no end: the file may be cut there, with the calls made after it lost, so no "
                      "check over the run's calls can be decided")

    def steps_merged(self, index: int, origin: Origin) -> None:
        """An assistant message that holds text and keeps its calls apart from it (an AI
        SDK UI message's ``toolInvocations`` or tool ``parts``, not read): its content is
        the text of all its steps, the words before a call and maybe, after the last, the
        reply, and nothing here tells them apart. Its text is a note, sent with a call;
        the reply it may hold leaves the response unknown."""
        self.response_unknown("unread-text", origin, f"message {index + 1} keeps its tool calls apart from its text, "
                              "which may be words before them or a reply after them: the response is unknown")

    def words_lost(self, origin: Origin, what: str, sent_with_call: bool) -> None:
        """Words of an assistant message that are not read: said, and a reply's leave the
        response unknown (a note's are no part of it)."""
        self.warn("unread-text", origin, f"{what}: what the agent said there is unknown")
        self.at_work = None  # it said something after the work before, which is what is unknown
        if not sent_with_call:
            self.reply_unread = self.reply_unread or origin

    def item_status(self, index: int, message: dict, first: str, sent_with_call: bool) -> None:
        """A Responses API ``message`` item (``message``, the assistant's, its words cited at
        its member ``first``) tells by its ``status`` whether the model finished it: one still
        ``in_progress`` was recorded while the model wrote it, so its words are not the
        whole of it, as a stream cut there is read (a reply's leave the response unknown);
        one ``incomplete`` was shown as far as the model went (a token limit, a filter):
        its words are read as they are, and the run says it stopped short."""
        if message.get("type") != "message" or message.get("status") not in _UNFINISHED:
            return
        origin = self.text_origin(index, message.get(first), first)  # found only where it is cited
        if message["status"] == "in_progress":
            self.words_lost(origin, f"message {index + 1} is a Responses API item still in_progress (the record was "
                            "cut while the model wrote it)", sent_with_call)
        else:
            self.warn("incomplete", origin, f"message {index + 1} is a Responses API item marked incomplete: the "
                      "model stopped before it finished (a token limit, a content filter); its words are read as "
                      "they were given")

    def cut_short(self, index: int, message: dict, first: str) -> None:
        """An assistant message whose completion says the model stopped at a token limit or
        a content filter (``finish_reason`` ``length`` or ``content_filter``, on the message
        or on the completion kept beside it, ``raw_data``): shown as far as it went, its words
        are read as they are, and the run says it stopped short, as for a Responses API item
        marked ``incomplete``."""
        reason = finish_reason(message)
        if reason in _STOPPED_SHORT:
            self.warn("incomplete", self.text_origin(index, message.get(first), first), f"message {index + 1} "
                      f"ended with finish_reason {reason!r}: the model stopped before it finished; its words are "
                      "read as they were given")

    def call_not_held(self, index: int, message: dict, calls_read: bool) -> bool:
        """Whether an assistant message's completion says it ended in a call
        (``finish_reason`` ``tool_calls`` or ``function_call``) while the message holds none
        read: the call is not in the record, so the run's calls are unknown, and the words
        were sent with it (a note), as a Claude Code message whose stop reason is ``tool_use``
        with no call in its lines."""
        reason = finish_reason(message)
        if reason not in _ENDED_IN_CALL or calls_read:
            return False
        self.warn(CALLS_MAY_BE_MISSING, self.start(index), f"message {index + 1} ended with finish_reason "
                  f"{reason!r} but holds no tool call: the call is not in the record, so no check over the run's "
                  "calls can be decided")
        return True

    def said(self, text: str, origin: Origin, sent_with_call: bool) -> None:
        """Words of an assistant message: a note when sent with a tool call, else a reply.
        Either way the agent spoke after the work before it (a call read with them is read
        after them, and is the work the run may end on)."""
        self.at_work = None
        if sent_with_call:
            self.entries.append(Text("agent", "text sent with a tool call", text, origin))
            return
        note = Text("agent", "reply", text, origin)
        self.step_replies.append(len(self.entries))
        self.entries.append(note)
        self.replies.append(note)

    def sent_with_call(self, positions: list[int]) -> None:
        """The replies at ``positions`` came with the call item that follows their message
        (a Responses API list keeps a response's text and its calls as items of their
        own): sent with a call, they are notes, not replies."""
        for position in positions:
            reply = self.entries[position]
            if isinstance(reply, Text):  # a reply is always a text: said() put it there
                self.entries[position] = replace(reply, title="text sent with a tool call")
                self.replies = [kept for kept in self.replies if kept is not reply]

    def response(self) -> tuple[Text, ...]:
        """The replies; unknown (each unsure, or one empty unsure text where none was
        read) when a reply holds words that were not read: the response is every
        reply, so it is not the others' words without it, nor none."""
        if self.reply_unread is None:
            return tuple(self.replies)
        return unknown_response(tuple(self.replies), self.reply_unread)


def unknown_response(replies: tuple[Text, ...], where: Origin) -> tuple[Text, ...]:
    """The replies read, each unsure (or one empty unsure text at ``where``, where a
    reply not read lies, when none was read): the response cannot be used."""
    return tuple(replace(reply, unsure=True) for reply in replies) or (Text("agent", "reply", "", where, unsure=True),)
