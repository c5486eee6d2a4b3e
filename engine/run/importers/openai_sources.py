"""Where the conversations of an OpenAI-format source lie, read one at a time.

A source is one JSON document (a message list, ``{"messages": [...]}``, a SWE-agent
trajectory's ``{"history": [...], "trajectory": [...], ...}``, or a list of such
conversations: tau-bench's results, each ``{"traj": [...], ...}``), or JSON
lines: one message per line (one conversation for the file) or one conversation per
line. A document's elements are found by one pass over its bytes (``jsondoc``) and
each is parsed when it is read, so one conversation is in memory at a time; a
conversation written on one line is cited by JSON Pointer and column. What a
conversation's object leaves unread around its message list is
``openai_list_problems``'s; where its messages' keys are, ``openai_locate``'s; what
the messages mean is ``openai``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.exact import loads
from referee.engine.run.importers.jsondoc import (HISTORY, MESSAGE_KEYS, TRAJECTORY, WHOLE_LIMIT, Document,
                                                  Element, message_array, strays)
from referee.engine.run.importers.message_lines import MessageLines, columns
from referee.engine.run.importers.openai import FORMAT, UNREAD, is_message, read_messages
from referee.engine.run.importers.openai_replies import unknown_response
from referee.engine.run.importers.openai_content import holds_reply, langchain_message
from referee.engine.run.importers.openai_list_problems import no_message, unread_lists
from referee.engine.run.importers.openai_locate import element_locator, line_locator
from referee.engine.run.importers.record import Conversation, Origin
from referee.engine.run.importers.source import CALL_WORDS, Source, each_json_line, holds_call, may_hold
from referee.engine.run.importers.statuses import ErrorWhen
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem

class LangChainMessages(ValueError):
    """A message list of LangChain's own message dicts alone: no conversation this
    importer reads; ``str(error)`` says how to convert it."""


class NoHistory(ValueError):
    """A SWE-agent trajectory with no ``history`` list: no conversation to read (read as
    JSON lines, each of its lines would be one lost); ``str(error)`` says why."""


class NoMessageList(ValueError):
    """One JSON object spread over several lines (a pretty-printed document: a config, a
    results file) that holds no message list: no conversation to read (read as JSON
    lines, each of its lines would be one lost); ``str(error)`` says why, and where it
    starts."""


def read_conversations(source: Source, error_when: ErrorWhen | None = None) -> list[Conversation]:
    """Every conversation in the source (several for JSONL with one per line)."""
    return [conversation for _, conversation in iter_conversations(source, error_when)]


def iter_conversations(source: Source, error_when: ErrorWhen | None = None) -> Iterator[tuple[int | None, Conversation]]:
    """Each conversation of the source as it is read, with its number when the source
    holds several (None when one): one conversation's messages are in memory at a
    time, and a document's messages are parsed one by one (``jsondoc``).
    ``error_when`` is ``--error-when`` (``statuses``)."""
    document = message_array(source.data)
    if document is not None and _holds_conversations(source, document):
        yield from _conversations(source, document, error_when)
        return
    if document is not None:
        yield None, _document(source, document, error_when)
        return
    whole = _one_object(source.data)
    if whole is not None and isinstance(whole[0], dict) and _trajectory_without_history(whole[0]):
        raise NoHistory("it is a SWE-agent trajectory (a \"trajectory\" list) whose \"history\" is no list of "
                        "messages: referee reads a trajectory's messages from its history alone")
    if whole is not None and whole[0] is None:
        raise NoMessageList(f"it is a JSON document spread over several lines (line {whole[1]} opens it with a "
                            "\"{\" alone), so no JSON lines, and no message list was found in it: is it one "
                            "valid JSON object?")
    if whole is not None and whole[2] and not is_message(whole[0]):
        raise NoMessageList(f"it is one JSON object (from line {whole[1]}) that holds no message list at its top "
                            "level (\"messages\", tau-bench's \"traj\", a \"history\" beside a SWE-agent "
                            "\"trajectory\"), so no conversation")
    if whole is not None and whole[2]:
        yield None, _one_message(source, whole[0], whole[1], error_when)
        return
    problems: list[Problem] = []
    lines = each_json_line(source, problems, CALL_WORDS)
    first = next(lines, None)
    if first is not None and is_message(first[1]):
        yield None, _message_lines(source, first, lines, problems, error_when)
        return
    # One conversation per line, read and handed on one at a time: a line that cannot
    # be read is a conversation lost (reported), not calls missing from the others. A
    # line of its own that holds a call (a message, a Responses API item) belongs to a
    # conversation, most likely the one before it: that one's calls are incomplete.
    held: tuple[int | None, Conversation] | None = None
    count = 0
    unread: list[Problem] = []  # the lines that could not be read before a line read, each a conversation lost

    def placed() -> Iterator[tuple[int | None, Conversation]]:
        """Each line lost since the last line read, as a conversation of its own: the
        conversations after it keep their numbers, and it is the error of a conversation
        that gives no run. Lines lost after the last line read (a log cut while being
        written) shift no number: they are said with the last conversation."""
        nonlocal held, count
        for problem in _lines_lost(problems, unread):
            count += 1
            if held is not None:
                yield held
            held = (count, _empty(source, "line is not a conversation", problem.line, [problem]))

    for number, value, line in _chain(first, lines):
        yield from placed()
        messages = _messages(value)
        if messages is None:
            problems.append(Problem("unknown-record", source.name, "line is not a conversation; skipped", number))
            if held is not None and holds_call(value):
                lost = Problem(CALLS_MAY_BE_MISSING, source.name, "a message on a line of its own, skipped, holds a "
                               "tool call of a conversation: no check over its calls can be decided", number)
                held = (held[0], replace(held[1], problems=held[1].problems + (lost,)))
            if held is not None and holds_reply(value):  # the same for a reply: that conversation's last words?
                lost = Problem("unread-text", source.name, "a message on a line of its own, skipped, holds a reply "
                               "of a conversation: the response is unknown", number)
                held = (held[0], replace(held[1], problems=held[1].problems + (lost,),
                                         response=unknown_response(held[1].response, Origin(source.name, number))))
            continue
        count += 1
        inner = message_array(line)
        locate = line_locator(source.name, number, line, inner, messages)
        found, reply = unread_lists(source.name, inner, number, line)
        found += no_message(source.name, messages, number)
        found += [source.lossy[number]] if number in source.lossy else []  # this conversation's, as well as the file's
        conversation = read_messages(messages, locate, source.name, found, f"{source.name}#{count}",
                                     error_when=error_when, reply_unread=reply)
        if held is not None:
            yield held
        held = (count, conversation)
    kept = [p for p in source.problems + tuple(problems) if p.code != CALLS_MAY_BE_MISSING and p not in unread]
    if held is None:
        yield None, _empty(source, "no conversation found", None, kept)
        return
    place, last = held
    yield (place if count > 1 else None), replace(last, problems=last.problems + tuple(kept))


def _one_object(data: bytes) -> tuple[Any, int, bool] | None:
    """``(value, line where it starts, whether it spans several lines)`` when ``data``
    is one JSON object, else None; the value is None when the document is not read
    whole (past ``WHOLE_LIMIT``) or is not JSON, but its first line, a ``{`` alone as
    pretty-printers write it (no JSON line is one), tells a document. Spread over
    several lines, it is no JSON lines: read as lines, each of its lines would be a
    conversation lost."""
    body = data.lstrip()
    if body[:1] != b"{":
        return None
    line = data.count(b"\n", 0, len(data) - len(body)) + 1
    found = loads(data.decode("utf-8", "replace")) if len(data) <= WHOLE_LIMIT else None
    if found is not None:
        return (found[0], line, b"\n" in body.rstrip()) if isinstance(found[0], dict) else None
    return (None, line, True) if body.split(b"\n", 1)[0].strip() == b"{" else None


def _trajectory_without_history(value: dict) -> bool:
    """Is ``value`` a SWE-agent trajectory (it holds a ``trajectory`` list) whose
    ``history`` is no list?"""
    return isinstance(value.get(TRAJECTORY), list) and not isinstance(value.get(HISTORY), list)


def _lines_lost(problems: list[Problem], lost: list[Problem]) -> list[Problem]:
    """The lines reported since the last call that could not be read at all (a
    conversation each, lost where it stood: the conversations after it keep their
    numbers), added to ``lost``."""
    found = [p for p in problems if p.code in _SKIPPED and p not in lost]
    lost.extend(found)
    return found


def _chain(first: tuple[int, Any, str] | None, rest: Iterator[tuple[int, Any, str]]) -> Iterator[tuple[int, Any, str]]:
    if first is not None:
        yield first
    yield from rest


def _message_lines(source: Source, first: tuple[int, Any, str], rest: Iterator[tuple[int, Any, str]],
                   problems: list[Problem], error_when: ErrorWhen | None) -> Conversation:
    """One message per line: one conversation for the whole file."""
    numbers: list[int] = []

    def messages() -> Iterator[Any]:
        for number, value, _ in _chain(first, rest):
            numbers.append(number)
            yield value

    locate = lambda i, key, nth, suffix="": Origin(source.name, numbers[i])  # noqa: E731
    conversation = read_messages(messages(), locate, source.name, problems, source.name, error_when=error_when)
    return _message_may_be_lost(replace(conversation, problems=source.problems + conversation.problems))


def _one_message(source: Source, message: dict, line: int, error_when: ErrorWhen | None) -> Conversation:
    """A document that is one message spread over several lines (pretty-printed, from
    ``line``): the conversation of that message, as the same message written on one line
    is (JSON lines of one message), each key cited on its line."""
    element = Element(len(source.data) - len(source.data.lstrip()), len(source.data), line)
    problems: list[Problem] = []
    lines = MessageLines(_decoded(source, element, problems), line, source.name, value=message)
    locate = lambda i, key, nth, suffix="": lines.origin(key, nth, suffix)  # noqa: E731
    conversation = read_messages([message], locate, source.name, problems, source.name, error_when=error_when)
    return replace(conversation, lossy=_lossy_messages(source, [element], conversation.problems))


_SKIPPED = frozenset({"bad-json", "truncated", "too-deep"})  # a message that could not be read at all


def _message_may_be_lost(conversation: Conversation) -> Conversation:
    """A conversation one of whose messages could not be read (``_SKIPPED``): it may
    have been a reply, and the replies make up the response, so the response is
    unknown, never the replies read without it; and as much a turn of the user, so the
    harness text is unknown too."""
    lost = min((p.line for p in conversation.problems if p.code in _SKIPPED and p.line is not None), default=None)
    if lost is None:
        return conversation
    where = next(p.path for p in conversation.problems if p.code in _SKIPPED and p.line == lost)
    turn = Problem(HARNESS_MAY_BE_MISSING, where, "a message that could not be read may be a turn of the user: no "
                   "check over the harness text can be decided", lost)
    return replace(conversation, response=unknown_response(conversation.response, Origin(where, lost)),
                   problems=conversation.problems + (turn,))


def _document(source: Source, document: Document, error_when: ErrorWhen | None) -> Conversation:
    """The conversation of a document, each message parsed when the reader reaches it."""
    problems: list[Problem] = []
    for line in strays(source.data, document.elements):
        problems.append(Problem("unknown-message", source.name, "an element of the message list is no message; skipped", line))
    unread, reply = unread_lists(source.name, document, 1, source.data)
    problems += unread
    lines: dict[int, MessageLines] = {}
    starts = columns(source.data, document.elements)
    lost: list[Origin] = []  # where a skipped element holds a reply
    kinds = {"message": 0, "langchain": 0}  # the elements read as messages, and as LangChain's

    def messages() -> Iterator[Any]:
        for index, element in enumerate(document.elements):
            lines.clear()  # only the message being read is kept
            if element.is_object:
                where = (f"{document.base}/{index}", starts[index])
                value = _element_value(source, document, element, problems, lines, index, where)
                kinds["message"] += value is UNREAD or is_message(value)
                kinds["langchain"] += langchain_message(value)
                yield index, value
            else:
                problems.append(_not_an_object(source, element, index))
                _may_hide_a_call(source, element, problems, f"message {index + 1}, skipped,")
                if _holds_reply_text(source, element):  # a message stored as a string, a conversation nested
                    lost.append(Origin(source.name, element.line))
                    problems.append(Problem("unread-text", source.name, f"message {index + 1}, skipped, holds a "
                                            "reply: the response is unknown", element.line))

    def locate(index: int, key: str, nth: int, suffix: str = "") -> Origin:
        found = lines.get(index)
        return found.origin(key, nth, suffix) if found is not None else Origin(source.name, document.elements[index].line)

    conversation = read_messages(messages(), locate, source.name, problems, source.name, numbered=True,
                                 error_when=error_when, reply_unread=reply)
    if kinds["langchain"] and not kinds["message"]:  # read, it would be a run of skipped messages: checks on nothing
        raise LangChainMessages("its messages are LangChain's own dicts (messages_to_dict, dumpd or model_dump), "
                                "which this importer does not read: convert them with langchain_core.messages."
                                "convert_to_openai_messages and import what it gives")
    conversation = _message_may_be_lost(conversation)
    if lost:
        conversation = replace(conversation, response=unknown_response(conversation.response, lost[0]))
    return replace(conversation, lossy=_lossy_messages(source, document.elements, conversation.problems))


def _lossy_messages(source: Source, elements: list[Element], problems: Iterable[Problem]) -> tuple:
    """``(source, first line, last line)`` of each message holding a line that was read
    with replacement characters (``lossy``: all of the message is unsure)."""
    bad = sorted({p.line for p in problems if p.code == "not-utf8" and p.line is not None})
    found = []
    for element in elements if bad else ():
        last = element.line + source.data.count(b"\n", element.start, element.end)
        if any(element.line <= line <= last for line in bad):
            found.append((source.name, element.line, last))
    return tuple(found)


def _element_value(source: Source, document: Document, element: Element, problems: list[Problem], lines: dict,
                   index: int, where: tuple[str, int | None]) -> Any:
    """The message an element holds, or ``UNREAD`` when it cannot be read."""
    text = _decoded(source, element, problems)
    found = document.value(index, text) if element.end is not None else None
    lines[index] = MessageLines(text, element.line, source.name, *where, found[0] if found is not None else None)
    if found is not None:
        return found[0]
    why = "the document is cut short inside it" if element.end is None else "it is not JSON (or nested too deep)"
    problems.append(Problem("bad-json", source.name, f"message {index + 1} cannot be read: {why}; skipped", element.line))
    if element.end is None or may_hold(text, CALL_WORDS):
        message = "this message could not be read and may hold a tool call: no check over the run's calls can be decided"
        problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, message, element.line))
    return UNREAD


def _decoded(source: Source, element: Element, problems: list[Problem]) -> str:
    """An element's text; bytes that are not UTF-8 replaced, and reported on their line."""
    raw = source.data[element.start:element.end]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = element.line + raw.count(b"\n", 0, exc.start)
        message = f"byte 0x{raw[exc.start]:02x} is not UTF-8; kept with replacement characters"
        problems.append(Problem("not-utf8", source.name, message, line))
        return raw.decode("utf-8", errors="replace")


def _not_an_object(source: Source, element: Element, index: int) -> Problem:
    """Why an element that is no object is skipped: one that is JSON (a string, a
    number, a list) is no message; one that is not JSON, though its bounds were found
    (an object closed by a bracket), is a message that could not be read (``bad-json``),
    which may have been a reply or a turn of the user (``_message_may_be_lost``)."""
    if element.end is None or loads(source.data[element.start:element.end].decode("utf-8", "replace")) is None:
        return Problem("bad-json", source.name, f"message {index + 1} cannot be read: it is not JSON; skipped",
                       element.line)
    return Problem("unknown-message", source.name, f"message {index + 1} is not an object; skipped", element.line)


def _may_hide_a_call(source: Source, element: Element, problems: list[Problem], what: str) -> None:
    """A skipped element whose text names a call (a message written as a JSON string,
    a list of messages) makes the run's calls incomplete, as an unreadable message does."""
    if may_hold(source.data[element.start:element.end].decode("utf-8", "replace")):
        message = f"{what} may hold a tool call: no check over the run's calls can be decided"
        problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, message, element.line))


def _holds_reply_text(source: Source, element: Element) -> bool:
    """Whether a skipped element (no object) holds a reply: read as JSON, it is an
    assistant message written as a string, or a list holding one."""
    found = loads(source.data[element.start:element.end].decode("utf-8", "replace")) if element.end else None
    return found is not None and holds_reply(found[0])


def _empty(source: Source, message: str, line: int | None, problems: list | None = None) -> Conversation:
    found = list(problems if problems is not None else source.problems)
    found.append(Problem("unknown-format", source.name, message, line))
    return Conversation(FORMAT, (source.name,), problems=tuple(found), label=source.name)


def _messages(value: Any) -> list | None:
    """The messages of a conversation: a list, or the first list an object gives under
    ``messages`` (``traj``: tau-bench; ``history`` beside a ``trajectory`` list:
    SWE-agent), as ``jsondoc.message_array`` takes it."""
    if isinstance(value, dict):
        keys = MESSAGE_KEYS + ((HISTORY,) if isinstance(value.get(TRAJECTORY), list) else ())
        return next((v for k, v in value.items() if k in keys and isinstance(v, list)), None)
    return value if isinstance(value, list) else None


# --- a document that holds conversations (tau-bench's results) -----------------------------


def _holds_conversations(source: Source, document: Document) -> bool:
    """Is the document a list of conversations rather than of messages? Its first
    element tells (only a top-level list can be one)."""
    first = next((e for e in document.elements if e.is_object and e.end is not None), None)
    if document.base or first is None:
        return False
    text = source.data[first.start:first.end].decode("utf-8", errors="replace")
    found = document.value(document.elements.index(first), text)
    return found is not None and not is_message(found[0]) and _messages(found[0]) is not None


def _conversations(source: Source, document: Document,
                   error_when: ErrorWhen | None) -> Iterator[tuple[int | None, Conversation]]:
    """Each element of the document as a conversation, parsed when it is reached."""
    several = len(document.elements) > 1
    for number, element in enumerate(document.elements, 1):
        problems: list[Problem] = []
        text = _decoded(source, element, problems)
        found = document.value(number - 1, text) if element.is_object and element.end is not None else None
        messages = _messages(found[0]) if found is not None else None
        if messages is None:
            message = f"element {number} of the list is not a conversation; skipped"
            problems.append(Problem("unknown-record", source.name, message, element.line))
            yield (number if several else None), Conversation(FORMAT, (source.name,), problems=tuple(problems))
            continue
        inner = message_array(text)
        unread, reply = unread_lists(source.name, inner, element.line, text)
        problems += unread + no_message(source.name, messages, element.line)
        locate = element_locator(source.name, text, element.line, f"/{number - 1}", inner, messages)
        conversation = read_messages(messages, locate, source.name, problems, f"{source.name}#{number}",
                                     error_when=error_when, reply_unread=reply)
        yield (number if several else None), replace(conversation, lossy=_lossy_messages(source, [element], problems))


