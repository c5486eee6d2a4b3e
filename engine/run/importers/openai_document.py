"""An OpenAI-format source that is one document of messages, read message by message.

A message list (bare, or a conversation object's ``messages``, ``traj`` or a SWE-agent
``history``) has its elements found by ``jsondoc`` and each parsed when the reader
reaches it; an element that is no message, or that cannot be read, is said where it
lies, with what it may hide (a call, a reply, a turn of the user). A document that
is one message spread over several lines is read as that message. The messages of
a source, whatever its kind, that hold bytes which are not UTF-8 are marked lossy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.exact import loads
from referee.engine.run.importers.jsondoc import Document, Element, strays
from referee.engine.run.importers.message_lines import MessageLines, SharedLine, columns
from referee.engine.run.importers.openai import UNREAD, is_message, read_messages
from referee.engine.run.importers.openai_content import holds_reply, holds_text, langchain_message
from referee.engine.run.importers.openai_items import tool_names
from referee.engine.run.importers.openai_list_problems import unread_lists
from referee.engine.run.importers.openai_replies import unknown_response
from referee.engine.run.importers.record import Conversation, Origin
from referee.engine.run.importers.source import CALL_WORDS, SKIPPED, Source, may_hold
from referee.engine.text import ascii_digits
from referee.engine.run.importers.statuses import ErrorWhen
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem


class LangChainMessages(ValueError):
    """A message list of LangChain's own message dicts alone: no conversation this
    importer reads; ``str(error)`` says how to convert it."""


def read_document(source: Source, document: Document, error_when: ErrorWhen | None,
                  late: bool = False) -> Conversation:
    """The conversation of a document, each message parsed when the reader reaches it.
    ``late``: a place on a line several messages share is given without its column,
    which the conversation's ``columns`` finds when the place is cited (a run graded in
    memory, whose source map is not written, cites few of its places)."""
    problems: list[Problem] = []
    stray = set(strays(source.data, document.elements))
    for index in sorted(stray):
        problems.append(Problem("unknown-message", source.name, "an element of the message list is no message; skipped",
                                document.elements[index].line))
    problems += cut_short(source, document)
    unread, reply, request = unread_lists(source.name, document, 1, source.data)
    problems += unread
    lines: dict[int, MessageLines | SharedLine] = {}
    starts = columns(source.data, document.elements)
    lost: list[Origin] = []  # where a skipped element holds a reply
    kinds = {"message": 0, "langchain": 0}  # the elements read as messages, and as LangChain's

    def messages() -> Iterator[Any]:
        for index, element in enumerate(document.elements):
            lines.clear()  # only the message being read is kept
            if index in stray:  # values before it that are no message: not read
                yield index, UNREAD
            if element.is_object:
                where = (f"{document.base}/{index}", starts[index])
                value = _element_value(source, document, element, problems, lines, index, where, late)
                kinds["message"] += value is UNREAD or is_message(value)
                kinds["langchain"] += langchain_message(value)
                yield index, value
            else:
                problems.append(_not_an_object(source, element, index))
                _may_hide_a_call(source, element, problems, f"message {index + 1}, skipped,")
                found = _element_json(source, element)
                if found is not None and holds_reply(found[0]):  # a message stored as a string, a conversation nested
                    lost.append(Origin(source.name, element.line))
                    problems.append(Problem("unread-text", source.name, f"message {index + 1}, skipped, holds a "
                                            "reply: the response is unknown", element.line))
                elif found is not None and holds_text(found[0]):  # words whose turn is not told: a reply's, say
                    lost.append(Origin(source.name, element.line))
                    problems.append(Problem("unread-text", source.name, f"message {index + 1}, skipped, holds text "
                                            "that may be a reply: the response is unknown", element.line))
                if found is not None and holds_text(found[0]):  # or a user's turn
                    problems.append(Problem(HARNESS_MAY_BE_MISSING, source.name, f"message {index + 1}, skipped, "
                                            "holds text that may be the harness's (a turn of the user): no check "
                                            "over the harness text can be decided", element.line))
                yield index, UNREAD

    def locate(index: int, key: str, nth: int, suffix: str = "") -> Origin:
        found = lines.get(index)
        return found.origin(key, nth, suffix) if found is not None else Origin(source.name, document.elements[index].line)

    tools = declared_tools(source.data) if document.base else frozenset()
    conversation = read_messages(messages(), locate, source.name, problems, source.name, numbered=True,
                                 error_when=error_when, reply_unread=reply, tools=tools, awaits_completion=request)
    if kinds["langchain"] and not kinds["message"]:  # read, it would be a run of skipped messages: checks on nothing
        raise LangChainMessages("its messages are LangChain's own dicts (messages_to_dict, dumpd or model_dump), "
                                "which this importer does not read: convert them with langchain_core.messages."
                                "convert_to_openai_messages and import what it gives")
    conversation = message_may_be_lost(conversation)
    if late:
        conversation = replace(conversation, columns=_columns(source, replace(document, values=None, whole=None), starts))
    if lost:
        conversation = replace(conversation, response=unknown_response(conversation.response, lost[0]))
    return replace(conversation, lossy=lossy_messages(source, document.elements, conversation.problems))


def cut_short(source: Source, document: Document) -> list[Problem]:
    """Why a document that never closes (a copy cut, a log killed while being written)
    may lack what came after its last byte, said at its last line; nothing for one read
    to its end. Cut inside a message, that message says so (``_element_value``); cut
    between two messages, or after the list, each message read is whole, but the
    messages after them (a call, the reply, a turn of the user), or what the document
    held beside the list, are lost: a JSON document marks its end, so the cut is seen
    and no check over what it may have held passes on what was read before it."""
    if not document.cut_after_elements():
        return []
    line = source.last_line
    if document.span is None:
        why = ("the document is cut short inside its message list (it never closes): the messages after the last one "
               "read (a call, the reply, a turn of the user) are lost")
    else:
        why = ("the document is cut short after its message list (it never closes): what it held beside the list "
               "(a reply, a call) is not read")
    return [Problem("truncated", source.name, why, line),
            Problem(CALLS_MAY_BE_MISSING, source.name, "the document is cut short and may have lost a tool call: no "
                    "check over the run's calls can be decided", line)]


def declared_tools(data: bytes) -> frozenset[str]:
    """The tools a document that holds a logged request declares (its ``tools`` list,
    wherever it lies: read whole, the document is not). A key inside a string is
    escaped, so only a member matches; a list too long to look at declares none, which
    leaves a list a reply ends with read as calls, as when no tools are declared."""
    for found in islice(_TOOLS.finditer(data), _TOOLS_TRIED):
        head = data[found.end() - 1:found.end() - 1 + _TOOLS_LIMIT].decode("utf-8", errors="replace")
        try:
            value, _ = json.JSONDecoder().raw_decode(head)
        except (ValueError, RecursionError):
            continue
        names = tool_names(value)
        if names:
            return names
    return frozenset()


_TOOLS = re.compile(rb'"tools"[ \t\r\n]*:[ \t\r\n]*\[')
_TOOLS_LIMIT = 1024 * 1024  # the bytes of a tools list looked at
_TOOLS_TRIED = 4  # the "tools" members looked at: the request's is one of the first (its messages hold none)


def _element_value(source: Source, document: Document, element: Element, problems: list[Problem], lines: dict,
                   index: int, where: tuple[str, int | None], late: bool = False) -> Any:
    """The message an element holds, or ``UNREAD`` when it cannot be read."""
    lines[index], found = _message_lines(source, document, element, problems, index, where, late)
    if found is not None:
        return found[0]
    why = "the document is cut short inside it" if element.end is None else "it is not JSON (or nested too deep)"
    problems.append(Problem("bad-json", source.name, f"message {index + 1} cannot be read: {why}; skipped", element.line))
    if element.end is None or may_hold(lines[index].text, CALL_WORDS):
        message = "this message could not be read and may hold a tool call: no check over the run's calls can be decided"
        problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, message, element.line))
    return UNREAD


def _message_lines(source: Source, document: Document, element: Element, problems: list[Problem], index: int,
                   where: tuple[str, int | None],
                   late: bool = False) -> tuple[MessageLines | SharedLine, tuple[Any] | None]:
    """The lines of the message an element holds, and its value when it is JSON (``(value,)``).
    One the document decoded whole gave (``Document.values``), on a line it shares with
    others and no line of its own (its bytes hold no line break), is placed ``late``
    without decoding its text: nothing else of it would be looked at."""
    if late and document.values is not None and where[1] is not None \
            and source.data.find(b"\n", element.start, element.end) < 0:
        return SharedLine(source.name, element.line, where[0]), (document.values[index],)
    text = decoded(source, element, problems)
    found = document.value(index, text) if element.end is not None else None
    return MessageLines(text, element.line, source.name, *where, found[0] if found is not None else None,
                        late=late), found


def _columns(source: Source, document: Document, starts: list[int | None]) -> Callable[[str, str], int | None]:
    """The column of a place ``read_document`` gave without it (``late``), by the source's
    name and the place's JSON Pointer: its message is decoded and parsed again, and the
    place found in it as it would have been when read (the value parsed anew is the one
    read: ``Document.value``). A message cited is kept: evidence cites a place again and
    again (each verdict on a call cites its name and its arguments)."""
    head = document.base + "/"
    cited: dict[int, MessageLines | SharedLine] = {}

    def column(name: str, pointer: str) -> int | None:
        number, _, rest = pointer.removeprefix(head).partition("/")
        if name != source.name or not pointer.startswith(head) or not ascii_digits(number, most=9):
            return None
        index = int(number)
        if index >= len(document.elements):
            return None
        if index not in cited:
            where = (f"{head}{index}", starts[index])
            cited[index] = _message_lines(source, document, document.elements[index], [], index, where)[0]
        suffix = "/" + rest if rest else ""
        return cited[index].origin(suffix.rpartition("/")[2], 0, suffix).column  # the key is the pointer's last name

    return column


def _not_an_object(source: Source, element: Element, index: int) -> Problem:
    """Why an element that is no object is skipped: one that is JSON (a string, a
    number, a list) is no message; one that is not JSON, though its bounds were found
    (an object closed by a bracket), is a message that could not be read (``bad-json``),
    which may have been a reply or a turn of the user (``message_may_be_lost``)."""
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


def _element_json(source: Source, element: Element) -> tuple[Any] | None:
    """A skipped element (no object) read as JSON, None when it is not JSON whole."""
    return loads(source.data[element.start:element.end].decode("utf-8", "replace")) if element.end else None


def one_message(source: Source, message: dict, line: int, error_when: ErrorWhen | None) -> Conversation:
    """A document that is one message spread over several lines (pretty-printed, from
    ``line``): the conversation of that message, as the same message written on one line
    is (JSON lines of one message), each key cited on its line."""
    element = Element(len(source.data) - len(source.data.lstrip()), len(source.data), line)
    problems: list[Problem] = []
    lines = MessageLines(decoded(source, element, problems), line, source.name, value=message)
    locate = lambda i, key, nth, suffix="": lines.origin(key, nth, suffix)  # noqa: E731
    conversation = read_messages([message], locate, source.name, problems, source.name, error_when=error_when)
    return replace(conversation, lossy=lossy_messages(source, [element], conversation.problems))



def message_may_be_lost(conversation: Conversation) -> Conversation:
    """A conversation one of whose messages could not be read (``SKIPPED``): it may
    have been a reply, and the replies make up the response, so the response is
    unknown, never the replies read without it; and as much a turn of the user, so the
    harness text is unknown too."""
    lost = min((p.line for p in conversation.problems if p.code in SKIPPED and p.line is not None), default=None)
    if lost is None:
        return conversation
    where = next(p.path for p in conversation.problems if p.code in SKIPPED and p.line == lost)
    turn = Problem(HARNESS_MAY_BE_MISSING, where, "a message that could not be read may be a turn of the user: no "
                   "check over the harness text can be decided", lost)
    return replace(conversation, response=unknown_response(conversation.response, Origin(where, lost)),
                   problems=conversation.problems + (turn,))


def lossy_messages(source: Source, elements: list[Element], problems: Iterable[Problem]) -> tuple:
    """``(source, first line, last line)`` of each message holding a line that was read
    with replacement characters (``lossy``: all of the message is unsure)."""
    bad = sorted({p.line for p in problems if p.code == "not-utf8" and p.line is not None})
    found = []
    for element in elements if bad else ():
        last = element.line + source.data.count(b"\n", element.start, element.end)
        if any(element.line <= line <= last for line in bad):
            found.append((source.name, element.line, last))
    return tuple(found)


def decoded(source: Source, element: Element, problems: list[Problem]) -> str:
    """An element's text; bytes that are not UTF-8 replaced, and reported on their line."""
    raw = source.data[element.start:element.end]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = element.line + raw.count(b"\n", 0, exc.start)
        message = f"byte 0x{raw[exc.start]:02x} is not UTF-8; kept with replacement characters"
        problems.append(Problem("not-utf8", source.name, message, line))
        return raw.decode("utf-8", errors="replace")
