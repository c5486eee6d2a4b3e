"""The tool calls of an OpenAI-format conversation and the tool messages that answer them.

An assistant message's ``tool_calls`` (and a legacy ``function_call``) are read here as
calls, their ``arguments`` as JSON (kept as text, their fields unknown, when they are
not an object), a custom tool's free-form ``input`` as text, whole; so are the Responses
API's call items (``openai_call_shapes`` tells the shapes apart). A ``tool`` message (or
an output item) pairs with the open call of its ``tool_call_id`` (``call_id``) (a
``function`` message with the call of its name, an answer with no id with the first
open call of the tool it names), and gives that call its return and its status
(``statuses``). What the messages around them mean is ``openai``'s.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers.exact import loads
from referee.engine.run.importers.openai_call_shapes import (INSPECT_MEMBERS, Shape, item_beside, shape_of, users,
                                                            without_echo)
from referee.engine.run.importers.openai_content import result_of, text_of, words_unread
from referee.engine.run.importers.openai_items import holds_other_call
from referee.engine.run.importers.openai_steps import Locate, MessageSteps
from referee.engine.run.importers.record import Call, Origin, Text
from referee.engine.run.importers.source import holds_call
from referee.engine.run.importers.statuses import FLAGS, ErrorWhen, Statuses
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem



class ToolCalls(MessageSteps):
    """The calls read so far, which of them are still open, and their answers."""

    def __init__(self, locate: Locate, name: str, problems: list[Problem], error_when: ErrorWhen | None) -> None:
        super().__init__(locate, problems)
        self.name = name
        self.statuses = Statuses(name, error_when, self.warn)  # the statuses of the answered calls
        self.open: dict[str, list[int]] = {}  # tool_call_id (or "function:<name>") -> positions
        # the same key -> (the call answered last, the message that answered it), compared only when answered again
        self.answered_at: dict[str, tuple[int, dict]] = {}
        self.ids: set[str] = set()
        self.user_calls: set[str] = set()  # the ids of the calls the user made on its own side, not yet answered
        # the positions of the calls written in Inspect AI's shape, whose answers say every failure
        self.flagging: set[int] = set()
        # elements not read while calls were open: (where, what, the calls then open)
        self.unread_answers: list[tuple[Origin, str, list[int]]] = []

    def call(self, index: int, nth: int, call: Any, legacy: bool = False) -> None:
        self.shaped_call(index, nth, call, shape_of(call, nth, legacy), legacy)

    def shaped_call(self, index: int, nth: int, written: Any, shape: Shape, legacy: bool) -> None:
        """The ``nth`` call of a message, kept in ``shape``: read, and open until answered."""
        function = shape.function
        origin = self.locate(index, shape.args_key, nth, f"{shape.at}/{shape.args_key}")
        if not isinstance(function, dict):
            self.unread_call(origin, "a tool call without a function; skipped")
            return
        beside = [written[key] for key in written.keys() - shape.members]
        if function is not written:  # and what its function holds beside its name and input
            beside += [function[key] for key in function.keys() - {shape.name_key, shape.args_key}]
        if beside and holds_call(beside):
            self.unread_call(origin, "a tool call holds another call beside its function; not read")
        raw_name = function.get(shape.name_key)
        name = raw_name if isinstance(raw_name, str) else ""
        raw = function.get(shape.args_key)
        args, readable = self.free_input(raw, origin) if shape.free_form else self.arguments(raw, origin)
        if shape.members is INSPECT_MEMBERS and written.get("parse_error") not in (None, ""):
            self.warn("bad-arguments", origin, "Inspect could not parse the call's arguments (its parse_error): "
                      "a check on their fields is an error")
            readable = False
        call_id = written.get("id") if isinstance(written.get("id"), str) else None
        key = f"function:{name}" if legacy else _id_key(written.get("id"))
        if not legacy and written.get("id") is not None and key in self.ids:
            self.warn("duplicate-id", origin, f"tool call id {written.get('id')!r} used again; results pair with the "
                      "first call still open")
        if not legacy and written.get("id") is not None:
            self.ids.add(key)
        self.open.setdefault(key, []).append(len(self.entries))
        if shape.members is INSPECT_MEMBERS:
            self.flagging.add(len(self.entries))
        if name:
            self.declared.add(name)
        named = self.locate(index, shape.name_key, nth, shape.name_at)
        unread = frozenset() if readable else frozenset({"args"})
        self.entries.append(Call(name, args, None, R.NO_RESULT, origin, None, call_id, tool_origin=named,
                                 unread=unread))

    def item_call(self, index: int, item: dict, member: str) -> None:
        """A Responses API call item (``call_item``: ``member`` holds its input), read as a
        tool call of ``tool_calls`` is: named by its ``call_id``, which its answer item
        names (``item_answer``)."""
        beside = item_beside(item)
        if beside and holds_call(beside):
            self.unread_call(self.locate(index, "type", 0, "/type"), "a call item holds another call beside its "
                             "own; not read")
        call = {"id": item["call_id"], "function": {"name": item["name"], member: item.get(member)}}
        shape = Shape(call["function"], "", "name", "/name", member, frozenset(call), member == "input")
        self.shaped_call(index, 0, call, shape, legacy=False)

    def item_answer(self, index: int, item: dict) -> None:
        """A Responses API item that answers a call item (``answer_item``): its ``output``
        (text, or parts as a message's content) is the call's return, its status read as
        a tool message's (the item's own ``status`` says only that it is finished). A call
        it holds is not read, as a tool message's is not (``holds_other_call``)."""
        if holds_other_call(item, "tool"):
            self.unread_call(self.locate(index, "type", 0, "/type"), "an answer item holds a call; not read")
        answer = {"tool_call_id": item["call_id"], "content": item["output"]}
        self.answer(answer, "tool", self.locate(index, "output", 0, "/output"))

    def users_own(self, index: int, message: dict, role: str) -> bool:
        """Whether the message is a step the user took on its own side: a user turn of calls
        it made itself (``user_steps``), or a tool's answer to one of them (``user_answer``)."""
        if role == "user":
            return self.user_steps(index, message)
        return role == "tool" and self.user_answer(index, message)

    def user_steps(self, index: int, message: dict) -> bool:
        """Whether a user turn is tau2-bench's user simulator working tools of its own (the
        telecom domain's phone): every call of it named on itself and asked for by the user
        (``"requestor": "user"``), nothing else in the turn holding a call but its completion's
        copy of them (``raw_data``), and no words beside them (tau2 writes none). The agent
        only told the user what to run: each call is the harness's step, written as harness
        text, as the user's words are, and its answer is awaited by its id (``user_answer``)."""
        calls, content = message.get("tool_calls"), message.get("content")
        if not isinstance(calls, list) or not calls or not all(users(call) for call in calls):
            return False
        if text_of(content).strip() or words_unread(content):
            return False
        rest = {key: without_echo(value, calls) if key == "raw_data" else value
                for key, value in message.items() if key != "tool_calls"}
        if holds_other_call(rest, "user"):
            return False
        for nth, call in enumerate(calls):
            shown = json.dumps(call["arguments"], ensure_ascii=False, sort_keys=True, default=str)
            origin = self.locate(index, "arguments", nth, f"/tool_calls/{nth}/arguments")
            self.entries.append(Text(R.USER, "", f"{call['name']} {shown}", origin))
            self.user_calls.add(call["id"])
        return True

    def user_answer(self, index: int, message: dict) -> bool:
        """Whether a tool message answers a call the user made on its own side (``user_steps``):
        of that requestor, naming one of those calls by its id, and holding no call. What the
        tool told the user is the harness's text."""
        call_id = message.get("tool_call_id", message.get("id"))
        if message.get("requestor") != "user" or not isinstance(call_id, str) or call_id not in self.user_calls \
                or holds_other_call(message, "tool"):
            return False
        self.user_calls.discard(call_id)
        content = message.get("content")
        origin = self.text_origin(index, content)
        if words_unread(content):
            self.warn(HARNESS_MAY_BE_MISSING, origin, f"message {index + 1} (the answer to a call of the user's) "
                      "holds text in a shape this importer does not read: no check over the harness text can be "
                      "decided")
        text = text_of(content)
        if text.strip():
            self.entries.append(Text(R.USER, "", text, origin))
        return True

    def exit_record(self, index: int, message: Any) -> bool | None:
        """None unless the element is mini-swe-agent 2's exit record (``"role": "exit"``, its
        ``extra`` naming an ``exit_status``), which the harness writes when it ends the run:
        the harness's, never a reply nor a turn that may be missing. After the submit
        command (``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT``), which no tool message
        answers, a ``Submitted`` record is that command's answer: the harness submits only
        when the command exited with 0 and printed that line first, and the record's
        content is the rest of its output, the submission. Any other record (a limit
        reached, an error) is harness text, and a call still open then has an answer not
        in the record (its status and return unknown). True when it answered the submit
        command, False when it is harness text. A record that holds a call is none: read
        as the harness's, the call would be lost without a word."""
        if not isinstance(message, dict) or message.get("role") != "exit":
            return None
        content, extra = message.get("content"), message.get("extra")
        if not isinstance(extra, dict) or not isinstance(content, str) or not isinstance(extra.get("exit_status"), str) \
                or holds_call(message):
            return None
        origin = self.text_origin(index, content)
        submit = self.submit_call() if extra["exit_status"] == "Submitted" else None
        if submit is not None:
            self.open[submit[0]].remove(submit[1])
            call = R.call_at(self.entries, submit[1])
            self.statuses.answered += 1
            self.statuses.flagged += 1  # the harness said how the command exited: it submitted
            self.entries[submit[1]] = replace(call, result=result_of(content), status="success",
                                              result_origin=origin)
        elif content.strip():
            self.entries.append(Text(R.SYSTEM, "", content, origin))
        self.may_answer(origin, f"message {index + 1} (the harness's exit record)")
        return submit is not None

    def submit_call(self) -> tuple[str, int] | None:
        """The open call that ran mini-swe-agent's submit command (its ``command`` argument
        echoes the line that submits), as ``(key, position)``, when exactly one is open."""
        found = [(key, position) for key, waiting in self.open.items() for position in waiting
                 if _submits(R.call_at(self.entries, position))]
        return found[0] if len(found) == 1 else None

    def unread_call(self, origin: Origin, why: str) -> None:
        """A call the message holds that cannot be read: said, and the run's calls are incomplete."""
        self.warn("bad-call", origin, why)
        self.warn(CALLS_MAY_BE_MISSING, origin, "a tool call of this message could not be read: no check over "
                  "the run's calls can be decided")

    def arguments(self, raw: Any, origin: Origin) -> tuple[Any, bool]:
        """The arguments' value, and whether they could be read: a JSON object (as
        text, or as a value). Anything else (invalid JSON, a string holding JSON
        again, a list) is kept as it is, and its fields are unknown, never absent."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return {}, True
        found = loads(raw) if isinstance(raw, str) else (raw,)
        if found is None:
            self.warn("bad-arguments", origin, "arguments are not valid JSON; kept as text, and a check on "
                      "their fields is an error")
            return raw, False
        if not isinstance(found[0], dict):
            self.warn("bad-arguments", origin, f"arguments are JSON but not an object ({value_kind(found[0])}); "
                      "kept as they are, and a check on their fields is an error")
            return found[0], False
        return found[0], True

    def free_input(self, raw: Any, origin: Origin) -> tuple[Any, bool]:
        """A custom tool's input, and whether it could be read: free-form text, which the
        tool takes as it is, so it is the call's args whole (never parsed as JSON: text
        that reads as JSON is still text, and ``.args`` has no fields). Anything else is
        kept as it is, unsure."""
        if isinstance(raw, str):
            return raw, True
        self.warn("bad-arguments", origin, f"a custom tool's input is {value_kind(raw)}, not text; kept as it is, "
                  "and a check on it is an error")
        return raw, False

    def tool(self, index: int, message: dict, role: str, where: Origin) -> None:
        """A tool's message, whose text is at ``where``: the answer to an open call (or to several)."""
        if role == "tool" and message.get("tool_call_id") is None and self.responses(index, message):
            return
        self.answer(message, role, where)

    def responses(self, index: int, message: dict) -> bool:
        """Whether the message answers the open calls one by one in its ``tool_responses``,
        as AutoGen writes the answers to one assistant message's calls (each response with
        its ``tool_call_id``; the message's own content is those answers joined, and it
        names no id of its own): only when they name exactly the open calls' ids, each
        once, so no call is taken by a guess."""
        responses = message.get("tool_responses")
        if not isinstance(responses, list) or not responses or not all(isinstance(r, dict) for r in responses):
            return False
        keys = [_id_key(response.get("tool_call_id")) for response in responses]
        open_keys = {key for key, waiting in self.open.items() if waiting and not key.startswith("function:")}
        if "" in keys or len(set(keys)) != len(keys) or set(keys) != open_keys:
            return False
        for nth, response in enumerate(responses):
            self.answer(response, "tool", self.locate(index, "content", nth, f"/tool_responses/{nth}/content"))
        return True

    def answer(self, message: dict, role: str, origin: Origin) -> None:
        """A ``tool`` or ``function`` message (or one of AutoGen's responses) paired with its call."""
        if role == "function":
            key = f"function:{message.get('name')}"
        else:
            call_id = message.get("tool_call_id")
            named = message.get("tool_call_ids")  # SWE-agent's trajectories name the one call in a list
            if call_id is None and isinstance(named, list) and len(named) == 1:
                call_id = named[0]
            if call_id is None and self.open.get(_id_key(message.get("id"))):
                call_id = message.get("id")  # tau2-bench names the call by the tool message's own id
            key = _id_key(call_id)
        tool = _named_tool(message) if role == "tool" and key == "" else None
        position = self.answered_call(self.open.get(key) or [], tool)
        if position is None:
            shown = key.removeprefix(_NOT_TEXT)  # an id given as a number is shown as its JSON text
            if tool is not None:
                self.warn("orphan-result", origin, f"result for {tool!r}, with no id: no open call of that tool; "
                          "skipped")
            else:
                self.warn("orphan-result", origin, f"result for {shown!r}: no open call has that id; skipped")
            if key in self.answered_at and tool is None:
                self.answered_again(key, message, origin)
            else:
                R.unplaced_answer(self.problems, origin, shown or None)
            return
        self.answered_at[key] = (position, message)
        call = R.call_at(self.entries, position)
        content = message.get("content")
        lost = not isinstance(content, dict) and words_unread(content)  # an object is kept whole as the return
        if lost:
            self.warn("unread-text", origin, "the tool message holds text in a shape this importer does not read: "
                      "its call's return is unknown")
        status, unread = self.statuses.of(message, origin, lost, says_failures=position in self.flagging)
        unread |= {"return"} if lost else frozenset()
        result = result_of(content)
        self.entries[position] = replace(call, result=result, status=status, result_origin=origin,
                                         unread=call.unread | unread)

    def may_answer(self, origin: Origin, what: str) -> None:
        """An element not read (``what``, at ``origin``): tools answer in messages, so the
        answer to a call open here may be in it (``answers_unread``)."""
        waiting = [position for positions in self.open.values() for position in positions]
        if waiting:
            self.unread_answers.append((origin, what, waiting))

    def answers_unread(self) -> None:
        """Each call open at an element not read and never answered after it has an
        answer whose status and return are unknown (``record.unanswered_after``)."""
        R.unanswered_after(self.entries, self.problems, self.unread_answers)

    def answered_call(self, waiting: list[int], tool: str | None) -> int | None:
        """The position of the open call an answer pairs with, taken off ``waiting``
        (the calls open under its id): the first, or the first of the tool it names
        when the calls were made without ids (``tool``: Ollama's calls have none, and
        its answers name their tool); None when no such call is open."""
        for at, position in enumerate(waiting):
            if tool is None or R.call_at(self.entries, position).tool == tool:
                return waiting.pop(at)
        return None

    def answered_again(self, key: str, message: dict, origin: Origin) -> None:
        """A second, different answer to a call: which one counts is not said, so the
        call's status and return are unknown (the same answer repeated changes nothing)."""
        position, first = self.answered_at[key]
        if _answer(first) != _answer(message):
            R.answered_again(self.entries, position, self.problems, origin)


# mini-swe-agent's submit command prints one of these lines first: the harness then ends the run
SUBMITS = ("COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "MINI_SWE_AGENT_FINAL_OUTPUT")


def _submits(call: Call) -> bool:
    """Whether a call ran mini-swe-agent's submit command (its bash tool's ``command``)."""
    command = call.args.get("command") if isinstance(call.args, dict) else None
    return isinstance(command, str) and any(f"echo {line}" in command for line in SUBMITS)


def _id_key(value: Any) -> str:
    """How a call id (or a tool message's ``tool_call_id``) pairs: text as it is, none
    as ``""``, and any other JSON value (a number, as some servers write ids) by its
    JSON text, so ``1`` pairs with ``1`` and with neither ``"1"`` nor ``1.0``."""
    if value is None or isinstance(value, str):
        return value or ""
    return _NOT_TEXT + json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


_NOT_TEXT = "\0"  # opens the key of an id that is no text (a text id starting with NUL is unheard of)


def _named_tool(message: dict) -> str | None:
    """The tool a tool message names as the one that answers (``tool_name``, as
    Ollama's clients write it, or ``name``), None when it names none."""
    return next((message[key] for key in ("tool_name", "name") if isinstance(message.get(key), str)), None)


def _answer(message: dict) -> tuple:
    """What a tool message answers: its content and its error flags. Content that is
    no text is compared as it is (two objects, or two lists of parts not read as text,
    would both be the empty text)."""
    content = message.get("content")
    if isinstance(content, dict) or words_unread(content):
        shown = json.dumps(content, ensure_ascii=False, sort_keys=True, default=str)
    else:
        shown = text_of(content)
    return (shown,) + tuple(repr(message.get(flag)) for flag in FLAGS)



def value_kind(value: Any) -> str:
    """How a problem names the kind of a JSON value that is not the one expected."""
    return "text" if isinstance(value, str) else "a list" if isinstance(value, list) else type(value).__name__
