"""OpenAI chat-completions message lists.

A source is a JSON array of messages, an object ``{"messages": [...]}``, or JSONL:
one conversation per line (an array or an object with ``messages``), or one
message per line (one conversation for the whole file).

- ``system``/``developer`` messages and ``user`` turns are harness text (the first
  user turn is the eval prompt).
- An assistant message's ``tool_calls`` are calls; each is paired with the
  ``tool`` message of the same ``tool_call_id`` (legacy ``function_call`` and
  ``function`` messages by name). ``arguments`` is a JSON string: invalid JSON is
  kept as text and reported, and its fields are unknown (a check on them is an
  ERROR, never "absent"). A call never answered has status ``no_result``; the
  format has no error flag, so an answered call is a success unless the tool
  message says ``"is_error": true`` or ``"status": "error"``.
- Assistant text sent with a tool call is an agent note, not a reply the user
  saw; the assistant messages without tool calls are the replies, and make up
  the response.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from typing import Any, Callable

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers.record import Call, Conversation, Origin, Text
from referee.engine.run.importers.exact import loads
from referee.engine.run.importers.source import Source, json_container, json_lines
from referee.engine.run.model import Problem

FORMAT = "openai"
_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
CALL_WORDS = ("tool_calls", "function_call")  # a line holding one of these may hold a call
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)

Locate = Callable[[int, str, int], Origin]  # (message index, key, nth occurrence) -> origin


def looks_like(value: Any) -> bool:
    """True for a message list, a ``{"messages": [...]}`` object, or one message."""
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        return True
    if isinstance(value, list):
        return bool(value) and all(_is_message(m) for m in value[:5])
    return _is_message(value)


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and _role(value) is not None and "sessionId" not in value


def _role(message: Any) -> str | None:
    """The message's role when it is one of the format's roles, else None."""
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) and role in _ROLES else None


def read_conversations(source: Source) -> list[Conversation]:
    """Every conversation in the source (several for JSONL with one per line)."""
    text = source.text
    whole = json_container(text)
    if whole is not None and not _is_message(whole[0]):
        messages = _messages(whole[0])
        if messages is None:
            return [_empty(source, "not a message list or {\"messages\": [...]}", 1)]
        lines = _Lines(text, source.name)
        spans = _element_spans(text)
        locate = lines.locator(spans)
        return [read_messages(messages, locate, source.name, list(source.problems), source.name)]
    values, problems = json_lines(source, CALL_WORDS)
    if values and all(_is_message(v) for _, v in values):
        messages = [v for _, v in values]
        numbers = [n for n, _ in values]
        locate = lambda i, key, nth: Origin(source.name, numbers[i])  # noqa: E731
        return [read_messages(messages, locate, source.name, problems, source.name)]
    # One conversation per line: a line that cannot be read is a conversation lost
    # (reported), not calls missing from the others.
    problems = [p for p in problems if p.code != CALLS_MAY_BE_MISSING]
    found: list[Conversation] = []
    for number, value in values:
        messages = _messages(value)
        label = f"{source.name}#{len(found) + 1}"
        if messages is None:
            problems.append(Problem("unknown-record", source.name, "line is not a conversation; skipped", number))
            continue
        locate = (lambda n: lambda i, key, nth: Origin(source.name, n))(number)
        found.append(read_messages(messages, locate, source.name, [], label))
    if not found:
        return [_empty(source, "no conversation found", None, problems)]
    found[0] = replace(found[0], problems=tuple(problems) + found[0].problems)
    return found


def _empty(source: Source, message: str, line: int | None, problems: list | None = None) -> Conversation:
    found = list(problems if problems is not None else source.problems)
    found.append(Problem("unknown-format", source.name, message, line))
    return Conversation(FORMAT, (source.name,), problems=tuple(found), label=source.name)


def _messages(value: Any) -> list | None:
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        return value["messages"]
    return value if isinstance(value, list) else None


# --- reading messages -------------------------------------------------------------------


def read_messages(messages: list, locate: Locate, name: str, problems: list[Problem], label: str) -> Conversation:
    reader = _Reader(locate, name, problems)
    for index, message in enumerate(messages):
        reader.message(index, message)
    return Conversation(FORMAT, (name,), tuple(reader.entries), tuple(reader.replies),
                        problems=tuple(reader.problems), label=label)


class _Reader:
    def __init__(self, locate: Locate, name: str, problems: list[Problem]) -> None:
        self.locate = locate
        self.name = name
        self.problems = problems
        self.entries: list[Call | Text] = []
        self.replies: list[Text] = []
        self.open: dict[str, list[int]] = {}  # tool_call_id (or "function:<name>") -> positions
        self.ids: set[str] = set()
        self.prompted = False

    def warn(self, code: str, origin: Origin, message: str) -> None:
        self.problems.append(Problem(code, origin.source, message, origin.line))

    def message(self, index: int, message: Any) -> None:
        origin = self.locate(index, "", 0)
        role = _role(message)
        if role is None:
            given = message.get("role") if isinstance(message, dict) else message
            shown = given if isinstance(given, str) else type(given).__name__
            self.warn("unknown-message", origin, f"message {index + 1} has unknown role {shown!r}; skipped")
            return
        if role == "assistant":
            self.assistant(index, message)
        elif role in ("tool", "function"):
            self.tool(index, message, role)
        else:
            text = _text(message.get("content"))
            if text.strip():
                kind = R.SYSTEM if role != "user" else (R.USER if self.prompted else R.EVAL_PROMPT)
                self.prompted = self.prompted or role == "user"
                self.entries.append(Text(kind, "", text, self.locate(index, "content", 0)))

    def assistant(self, index: int, message: dict) -> None:
        calls = message.get("tool_calls")
        calls = calls if isinstance(calls, list) else []
        legacy = message.get("function_call")
        text = _text(message.get("content")) or _text(message.get("refusal"))
        if text.strip():
            origin = self.locate(index, "content", 0)
            if calls or isinstance(legacy, dict):
                self.entries.append(Text("agent", "text sent with a tool call", text, origin))
            else:
                note = Text("agent", "reply", text, origin)
                self.entries.append(note)
                self.replies.append(note)
        for nth, call in enumerate(calls):
            self.call(index, nth, call)
        if isinstance(legacy, dict):
            self.call(index, len(calls), {"function": legacy}, legacy=True)

    def call(self, index: int, nth: int, call: Any, legacy: bool = False) -> None:
        origin = self.locate(index, "arguments", nth)
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            self.warn("bad-call", origin, "a tool call without a function; skipped")
            return
        raw_name = function.get("name")
        name = raw_name if isinstance(raw_name, str) else ""
        args, readable = self.arguments(function.get("arguments"), origin)
        call_id = call.get("id") if isinstance(call.get("id"), str) else None
        key = f"function:{name}" if legacy else (call_id or "")
        if call_id is not None and call_id in self.ids:
            self.warn("duplicate-id", origin, f"tool call id {call_id!r} used again; results pair with the first call still open")
        if call_id is not None:
            self.ids.add(call_id)
        self.open.setdefault(key, []).append(len(self.entries))
        named = self.locate(index, "name", nth)
        unread = frozenset() if readable else frozenset({"args"})
        self.entries.append(Call(name, args, None, R.NO_RESULT, origin, None, call_id, tool_origin=named,
                                 unread=unread))

    def arguments(self, raw: Any, origin: Origin) -> tuple[Any, bool]:
        """The arguments' value, and whether they could be read (JSON text, or a value)."""
        if not isinstance(raw, str):
            return ({} if raw is None else raw), True
        if not raw.strip():
            return {}, True
        found = loads(raw)
        if found is None:
            self.warn("bad-arguments", origin, "arguments are not valid JSON; kept as text, and a check on "
                      "their fields is an error")
            return raw, False
        return found[0], True

    def tool(self, index: int, message: dict, role: str) -> None:
        origin = self.locate(index, "content", 0)
        if role == "function":
            key = f"function:{message.get('name')}"
        else:
            call_id = message.get("tool_call_id")
            key = call_id if isinstance(call_id, str) else ""
        waiting = self.open.get(key) or []
        if not waiting:
            self.warn("orphan-result", origin, f"result for {key!r}: no open call has that id; skipped")
            return
        position = waiting.pop(0)
        call = R.call_at(self.entries, position)
        failed = message.get("is_error") is True or message.get("status") == "error"
        result = _result(message.get("content"))
        self.entries[position] = replace(call, result=result, status="error" if failed else "success",
                                         result_origin=origin)


def _text(content: Any) -> str:
    """Message content as text: a string, or the text of its parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    return ""


def _result(content: Any) -> Any:
    """A tool message's content: the JSON it holds when it is JSON text, else the text."""
    text = _text(content)
    found = json_container(text.strip())
    return found[0] if found is not None else text


# --- lines in a pretty-printed document ---------------------------------------------------


def _element_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of each message of the document's message array.

    One pass over strings and brackets: the array is the top-level one, or the value
    of the top-level ``"messages"`` key; its elements are the objects directly in it.
    """
    spans: list[tuple[int, int]] = []
    depth, array_depth, start, last_key = 0, None, None, None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] == '"':
            if depth == 1:
                last_key = token
            continue
        if token in "[{":
            depth += 1
            if array_depth is None and token == "[" and (depth == 1 or (depth == 2 and last_key == '"messages"')):
                array_depth = depth
            elif array_depth is not None and depth == array_depth + 1:
                start = match.start()
        else:
            if array_depth is not None and depth == array_depth + 1 and start is not None:
                spans.append((start, match.end()))
                start = None
            if array_depth is not None and depth == array_depth:
                break
            depth -= 1
    return spans


class _Lines:
    """Line numbers of offsets in a source's text."""

    def __init__(self, text: str, name: str) -> None:
        self.text = text
        self.name = name
        self.breaks = [m.start() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_left(self.breaks, offset) + 1

    def locator(self, spans: list[tuple[int, int]]) -> Locate:
        def locate(index: int, key: str, nth: int) -> Origin:
            if index >= len(spans):
                return Origin(self.name, 1)
            start, end = spans[index]
            if key:
                found = list(re.finditer(rf'(?<!\\)"{key}"\s*:', self.text[start:end]))
                if nth < len(found):
                    return Origin(self.name, self.line(start + found[nth].start()))
            return Origin(self.name, self.line(start))
        return locate
