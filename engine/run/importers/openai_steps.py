"""What the OpenAI reader (``openai._Reader``) shares with every part of it, and the
steps a message list shows that it reads as neither a call nor a reply: a call written
as text or parsed from it (``text_calls``), a demonstration SWE-agent put in the
history, the Responses API items that stand for others (a reasoning item, a reference,
a compaction), a thread whose order is unknown, an AutoGen history kept from the side
of the agent that runs the calls. Each makes the run's calls, or its response, unknown
where it would otherwise be read as complete."""

from __future__ import annotations

from typing import Any, Callable

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers.openai_content import parts_unread, text_of, words_unread
from referee.engine.run.importers.record import Call, Origin, Text
from referee.engine.run.importers.source import holds_call, nested
from referee.engine.run.importers.text_calls import call_markup, class_list, observation, react_trace
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem

# (message index, key, nth occurrence, the key's JSON Pointer below the message) -> origin
Locate = Callable[[int, str, int, str], Origin]


class MessageSteps:
    """The reader's entries, replies and problems, where its texts lie, and the steps
    it reads as neither a call nor a reply."""

    def __init__(self, locate: Locate, problems: list[Problem]) -> None:
        self.locate = locate
        self.problems = problems
        self.entries: list[Call | Text] = []
        self.replies: list[Text] = []
        self.reply_unread: Origin | None = None  # the first reply holding words that were not read
        # the last call written as text, and how many entries stood before it (a reply after it is one of those
        # after, which a later message may yet show to have been sent with a call)
        self.call_as_text: tuple[Origin, int] | None = None
        self.declared: set[str] = set()  # the tools the run declares: its request's list, the calls read
        # AutoGen's speakers: the names of "assistant" turns with no call, and of the tool messages
        # that answer calls (``tool_responses``); one name in both keeps the history from the executor's side
        self.speakers: set[str] = set()
        self.executors: set[str] = set()

    def warn(self, code: str, origin: Origin, message: str) -> None:
        self.problems.append(Problem(code, origin.source, message, origin.line))

    def response_unknown(self, code: str, origin: Origin, message: str) -> None:
        """Say ``message`` at ``origin``, where words lie that may be a reply not read:
        the response is unknown, cited at the first such place met."""
        self.warn(code, origin, message)
        self.reply_unread = self.reply_unread or origin

    def start(self, index: int) -> Origin:
        """Where message ``index`` starts: asked for only where something cites it (a
        warning, an item of no role), as most messages are cited at their text or calls."""
        return self.locate(index, "", 0, "")

    def text_origin(self, index: int, content: Any, member: str = "content") -> Origin:
        """Where a message's text is: its first text part's ``text`` when the content
        is parts (in a pretty-printed document a line below the member's key), else
        the member."""
        if isinstance(content, list):
            before = 0  # the parts' "text" keys before it: where the message's value is not known
            for at, part in enumerate(content):
                if isinstance(part, dict) and "text" in part and text_of([part]):
                    return self.locate(index, "text", before, f"/{member}/{at}/text")
                before += isinstance(part, dict) and "text" in part
        return self.locate(index, member, 0, f"/{member}")

    def demonstration(self, index: int, message: dict) -> None:
        """A message SWE-agent put in its history as part of a demonstration (``is_demo``:
        a past run shown to the model as an example, as one user turn or as the demo's own
        messages, its assistant turns, their calls and the answers), or the greeting tau2's
        orchestrator opens a simulation with (``orchestrator_greeting``). The harness wrote
        it, whatever its role: its words are harness text, never the eval prompt (the issue
        that follows is) nor the agent's, and its calls are not the run's."""
        content = message.get("content")
        origin = self.text_origin(index, content)
        if words_unread(content) or parts_unread(message):
            self.warn(HARNESS_MAY_BE_MISSING, origin, f"message {index + 1} (a demonstration) holds text in a shape "
                      "this importer does not read: no check over the harness text can be decided")
        text = text_of(content)
        if text.strip():
            self.entries.append(Text(R.SYSTEM, "", text, origin))

    def sides(self, index: int, message: dict, role: str) -> None:
        """AutoGen keeps a chat's history from one agent's side: that agent's own turns
        are "assistant", the other agent's "user", and a turn with calls "assistant"
        whoever made it. When the agent that answers the calls (the ``name`` of AutoGen's
        tool message) also speaks as "assistant", the history is kept from the executor's
        side: the task is an "assistant" turn and the agent's replies are "user" turns.
        They are not swapped back here, so the response and the harness text are unknown
        (said once, at the message that shows it)."""
        name = message.get("name")
        if not isinstance(name, str) or self.speakers & self.executors:
            return
        if role == "tool" and isinstance(message.get("tool_responses"), list):
            self.executors.add(name)
        elif role == "assistant" and not message.get("tool_calls") and not message.get("function_call"):
            self.speakers.add(name)
        if name in self.speakers & self.executors:
            origin = self.start(index)
            self.response_unknown("message-sides", origin, f"message {index + 1} shows the history kept from the side "
                                  f"of {name!r}, the agent that answers the calls (AutoGen's tool messages) and also "
                                  "speaks as the assistant: the other agent's replies are its \"user\" turns, so the "
                                  "response is unknown")
            self.warn(HARNESS_MAY_BE_MISSING, origin, f"message {index + 1}: in a history kept from the side of "
                      f"{name!r}, its \"assistant\" turns are the harness's: no check over the harness text can be "
                      "decided")

    def unordered(self, index: int) -> None:
        """A thread whose messages' order is unknown (``in_time_order``): so is its response."""
        self.response_unknown("message-order", self.start(index), "the thread's messages are not listed oldest "
                              "first and not all give their created_at, so the order they were written in is "
                              "unknown: the response is unknown")

    def reasoning(self, index: int, item: dict, origin: Origin) -> None:
        """A Responses API ``reasoning`` item: the model's reasoning (its summary, its
        text), never a reply, so skipped. Its words are no call, whatever they name; a
        call held in it is one."""
        if holds_call(item):
            self.warn(CALLS_MAY_BE_MISSING, origin, f"message {index + 1}, a reasoning item, holds a tool call: no "
                      "check over the run's calls can be decided")

    def reference(self, index: int, origin: Origin) -> None:
        """A Responses API ``item_reference``: an item the API stored (a call, a tool's
        answer, a reply) stands here, and the list does not hold it, so the run's calls
        and its response are unknown."""
        self.warn(CALLS_MAY_BE_MISSING, origin, f"message {index + 1} refers to an item the list does not hold "
                  "(item_reference), which may be a tool call: no check over the run's calls can be decided")
        self.response_unknown("unread-text", origin, f"message {index + 1} refers to an item the list does not hold "
                              "(item_reference), which may be a reply: the response is unknown")

    def compaction(self, index: int, origin: Origin) -> None:
        """A Responses API ``compaction`` item: the items before it that the API
        compacted (calls, their answers, replies) are held encrypted, which no reader
        can open, so the run's calls and its response are unknown."""
        self.warn(CALLS_MAY_BE_MISSING, origin, f"message {index + 1} is a compaction item: the items it compacted, "
                  "which may hold tool calls, are encrypted: no check over the run's calls can be decided")
        self.response_unknown("unread-text", origin, f"message {index + 1} is a compaction item: the items it "
                              "compacted, which may hold replies, are encrypted: the response is unknown")

    def calls_as_text(self, index: int, text: str, content: Any) -> bool:
        """Whether the assistant's content writes a tool call as text (``text_calls``: a
        model served without a tool parser; a ReAct call answered by an observation in
        the same message, a scratchpad kept whole). Such a call is not read, so the
        run's calls are unknown; its text is a note sent with a call, and until a reply
        follows it, the response is unknown: whether the user saw the text is not said."""
        # the words read, or any text the content holds in a shape not read (one part
        # given as an object, a part of another type): a call written there is made all the same
        markup = found_in(text, content, self.call_markup) or found_in(text, content, react_trace)
        if markup is None:
            return False
        origin = self.text_origin(index, content)
        shown = markup if len(markup) <= 40 else markup[:40] + "..."
        self.warn(CALLS_MAY_BE_MISSING, origin, f"message {index + 1} writes a tool call as text ({shown!r}), which "
                  "this importer does not read as a call: no check over the run's calls can be decided")
        self.call_as_text = (origin, len(self.entries))
        return True

    def call_markup(self, text: str) -> str | None:
        """A call written as text (``text_calls.call_markup``), unless it is a pythonic list
        of capitalised names none of which is a tool the run declares (``[Point(x=1)]``):
        objects as Python shows them, data. Unless the run declares its tools (a list of
        them in its request, calls read), such a list stays a call that may have been made."""
        names = class_list(text)
        if names and self.declared and not self.declared.intersection(names):
            return None
        return call_markup(text)

    def observation_written(self, index: int, text: str, content: Any) -> bool:
        """Whether the assistant's content opens with ``Observation:`` after a message
        that wrote a ReAct call: the scratchpad goes on in the assistant's own turn.
        Some harnesses write the observation back as the model's words; or the model
        made it up: nothing in the record tells which, so it is read as a scratchpad
        kept whole in one message is (``react_trace``): the run's calls are unknown, the
        text is a note, and until a reply follows it, the response is unknown."""
        found = found_in(text, content, observation)
        if found is None:
            return False
        origin = self.text_origin(index, content)
        self.warn(CALLS_MAY_BE_MISSING, origin, f"message {index + 1} answers a ReAct call written before it in "
                  f"the assistant's own words ({found!r}): whether the harness ran the call or the model made up "
                  "its answer is not in the record, so no check over the run's calls can be decided")
        self.call_as_text = (origin, len(self.entries))
        return True

    def action_parsed(self, index: int, message: dict, sent_with_call: bool) -> bool:
        """Whether the message is a step of SWE-agent's history that ran a command it
        parsed from the message's text: its ``action`` (beside the ``thought`` parsed
        with it) with no call sent with it, as a text-based parser leaves it. The
        command is a call the run's calls do not hold; the text is sent with it, and
        until a reply follows, the response is unknown, as for a call written as text."""
        action = message.get("action")
        if sent_with_call or "thought" not in message or not isinstance(action, str) or not action.strip():
            return False
        origin = self.locate(index, "action", 0, "/action")
        self.warn(CALLS_MAY_BE_MISSING, origin, f"message {index + 1} holds a command its harness parsed from its "
                  "text and ran (its action, as SWE-agent's history keeps it), which this importer does not read "
                  "as a call: no check over the run's calls can be decided")
        self.call_as_text = (origin, len(self.entries))
        return True

    def finish(self) -> None:
        """When no reply follows the last call written as text (the words after it, if
        any, were all sent with a call), the run ended on a call, or on words the user
        saw: the response is unknown. Whether a message is a reply is known only once
        the message after it is read (a harness's answer, a call item), so this is
        decided at the end."""
        if self.call_as_text is None:
            return
        origin, before = self.call_as_text
        replies = {id(reply) for reply in self.replies}
        if not any(id(entry) in replies for entry in self.entries[before:]):
            self.response_unknown("unread-text", origin, "the last words read write a tool call as text, and no reply "
                                  "follows them: the response is unknown")


def found_in(text: str, content: Any, find: Callable[[str], str | None]) -> str | None:
    """What ``find`` finds (how a user turn shows it answers a command taken from the
    agent's text, ``answer_markup``; a ReAct call, ``react_action``), looked for in the
    words read and in every text the content holds, read or not (one part given as an
    object, a part after another): a command so written or answered was run all the same.
    Blank text writes none (the words of most messages that make a call), and text looked
    in once (content that is the words read) finds nothing the second time: neither is
    looked in."""
    found = find(text) if text and not text.isspace() else None
    if found is None:
        found = next((markup for item in nested(content) if isinstance(item, str) and item != text
                      and (markup := find(item)) is not None), None)
    return found


def orchestrator_greeting(message: dict) -> bool:
    """Is the first message of a conversation the greeting tau2-bench's orchestrator
    writes as the agent's before the user speaks (its ``DEFAULT_FIRST_AGENT_MESSAGE``,
    "Hi! How can I help you today?")? No model wrote it: tau2 keeps it with turn 0, no
    call, a cost of 0 and no raw response (``raw_data`` null), which every message a
    model wrote has. One that holds a call anywhere (a ``function_call`` too) is no
    greeting: read as harness text, its call would be lost without a word."""
    return (message.get("role") == "assistant" and message.get("turn_idx") == 0
            and "raw_data" in message and message["raw_data"] is None and message.get("cost") == 0
            and not isinstance(message.get("cost"), bool) and not holds_call(message))
