"""Where the conversations of an OpenAI-format source lie, read one at a time.

A source is one JSON document (a message list, ``{"messages": [...]}``, a SWE-agent
trajectory's ``{"history": [...], "trajectory": [...], ...}``, or a list of such
conversations: tau-bench's results, each ``{"traj": [...], ...}``, or tau2-bench's
``{"simulations": [...]}``, each ``{"messages": [...], ...}``), or JSON
lines: one message per line (one conversation for the file) or one conversation per
line. A document's elements are found by one pass over its bytes (``jsondoc``) and
each is parsed when it is read, so one conversation is in memory at a time; a
conversation written on one line is cited by JSON Pointer and column. A document of
messages is read by ``openai_document``; what a conversation's object leaves unread
around its message list is ``openai_list_problems``'s; where its messages' keys are,
``openai_locate``'s; what the messages mean is ``openai``'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.exact import loads
from referee.engine.run.importers.jsondoc import (HISTORY, MESSAGE_KEYS, SIMULATIONS, TRAJECTORY, WHOLE_LIMIT, Document,
                                                  message_array)
from referee.engine.run.importers.openai import FORMAT, UNREAD, is_message, read_messages
from referee.engine.run.importers.openai_items import tool_names
from referee.engine.run.importers.openai_content import holds_reply
from referee.engine.run.importers.openai_document import (decoded, lossy_messages, message_may_be_lost,
                                                          one_message, read_document)
from referee.engine.run.importers.openai_list_problems import no_message, unread_lists
from referee.engine.run.importers.openai_locate import element_locator, line_locator
from referee.engine.run.importers.openai_replies import unknown_response
from referee.engine.run.importers.record import Conversation, Origin
from referee.engine.run.importers.source import CALL_WORDS, SKIPPED, Source, each_json_line, holds_call
from referee.engine.run.importers.statuses import ErrorWhen
from referee.engine.run.model import Problem


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


def iter_conversations(source: Source, error_when: ErrorWhen | None = None,
                       late: bool = False) -> Iterator[tuple[int | None, Conversation]]:
    """Each conversation of the source as it is read, with its number when the source
    holds several (None when one): one conversation's messages are in memory at a
    time, and a document's messages are parsed one by one (``jsondoc``).
    ``error_when`` is ``--error-when`` (``statuses``); ``late``: a document of messages
    leaves the columns of its places to be found when cited (``read_document``)."""
    document = source.array if source.array is not None else message_array(source.data)
    if document is not None and _holds_conversations(source, document):
        yield from _conversations(source, document, error_when)
        return
    if document is not None and document.base != "/" + SIMULATIONS:  # else no conversations: said below
        yield None, read_document(source, document, error_when, late)
        return
    whole = _one_object(source.data)
    if whole is not None and isinstance(whole[0], dict) and _trajectory_without_history(whole[0]):
        raise NoHistory("it is a SWE-agent trajectory (a \"trajectory\" list) whose \"history\" is no list of "
                        "messages: referee reads a trajectory's messages from its history alone")
    if whole is not None and whole[0] is None and len(source.data) > WHOLE_LIMIT:
        raise NoMessageList(f"it is a JSON document of {len(source.data) / 2 ** 20:.1f} MiB spread over several "
                            f"lines (line {whole[1]} opens it with a \"{{\" alone) that holds no message list; over "
                            f"{WHOLE_LIMIT // 2 ** 20} MiB a document is read whole only when it may be one message "
                            "(it names a \"role\"), and this one names none or is no valid JSON")
    if whole is not None and whole[0] is None:
        raise NoMessageList(f"it is a JSON document spread over several lines (line {whole[1]} opens it with a "
                            "\"{\" alone), so no JSON lines, and no message list was found in it: is it one "
                            "valid JSON object?")
    if whole is not None and whole[2] and not is_message(whole[0]):
        raise NoMessageList(f"it is one JSON object (from line {whole[1]}) that holds no message list at its top "
                            "level (\"messages\", tau-bench's \"traj\", a \"history\" beside a SWE-agent "
                            "\"trajectory\"), so no conversation")
    if whole is not None and whole[2]:
        yield None, one_message(source, whole[0], whole[1], error_when)
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
        found, reply, request = unread_lists(source.name, inner, number, line)
        found += no_message(source.name, messages, number)
        found += [source.lossy[number]] if number in source.lossy else []  # this conversation's, as well as the file's
        conversation = read_messages(messages, locate, source.name, found, f"{source.name}#{count}",
                                     error_when=error_when, reply_unread=reply, tools=_declared(value),
                                     awaits_completion=request)
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
    conversation lost.

    Past ``WHOLE_LIMIT`` it is decoded whole only when it names a ``"role"`` (it holds
    no message list, which would have been read one message at a time): one message,
    whose words its conversation holds whole anyway; a larger object of another kind
    (a config, a results file) is not decoded for nothing."""
    body = data.lstrip()
    if body[:1] != b"{":
        return None
    line = data.count(b"\n", 0, len(data) - len(body)) + 1
    whole = len(data) <= WHOLE_LIMIT or _ROLE in data
    found = loads(data.decode("utf-8", "replace")) if whole else None
    if found is not None:
        return (found[0], line, b"\n" in body.rstrip()) if isinstance(found[0], dict) else None
    return (None, line, True) if body.split(b"\n", 1)[0].strip() == b"{" else None


_ROLE = b'"role"'  # how a message names its role, which a larger document must name to be decoded whole


def _trajectory_without_history(value: dict) -> bool:
    """Is ``value`` a SWE-agent trajectory (it holds a ``trajectory`` list) whose
    ``history`` is no list?"""
    return isinstance(value.get(TRAJECTORY), list) and not isinstance(value.get(HISTORY), list)


def _lines_lost(problems: list[Problem], lost: list[Problem]) -> list[Problem]:
    """The lines reported since the last call that could not be read at all (a
    conversation each, lost where it stood: the conversations after it keep their
    numbers), added to ``lost``."""
    found = [p for p in problems if p.code in SKIPPED and p not in lost]
    lost.extend(found)
    return found


def _chain(first: tuple[int, Any, str] | None, rest: Iterator[tuple[int, Any, str]]) -> Iterator[tuple[int, Any, str]]:
    if first is not None:
        yield first
    yield from rest


def _message_lines(source: Source, first: tuple[int, Any, str], rest: Iterator[tuple[int, Any, str]],
                   problems: list[Problem], error_when: ErrorWhen | None) -> Conversation:
    """One message per line: one conversation for the whole file. A line that could not
    be read is handed on as ``UNREAD`` where it stands: a call's answer may be in it.
    Lines mark no end, so a file of several may be cut where it ends; one message alone
    is a conversation of that message, read as the same message pretty-printed is."""
    second = next(rest, None)
    rest = _chain(second, rest)
    numbers: list[int] = []
    looked = 0  # the problems looked at for lines skipped

    def skipped(before: int | None) -> Iterator[Any]:
        """``UNREAD`` for each line skipped before line ``before`` (every one left, at None)."""
        nonlocal looked
        while looked < len(problems) and (before is None or (problems[looked].line or 0) < before):
            problem = problems[looked]
            looked += 1
            if problem.code in SKIPPED and problem.line:
                numbers.append(problem.line)
                yield UNREAD

    def messages() -> Iterator[Any]:
        for number, value, _ in _chain(first, rest):
            yield from skipped(number)
            numbers.append(number)
            yield value
        yield from skipped(None)

    locate = lambda i, key, nth, suffix="": Origin(source.name, numbers[i])  # noqa: E731
    conversation = read_messages(messages(), locate, source.name, problems, source.name, error_when=error_when,
                                 end_unmarked=second is not None)
    return message_may_be_lost(replace(conversation, problems=source.problems + conversation.problems))


def _empty(source: Source, message: str, line: int | None, problems: list | None = None) -> Conversation:
    found = list(problems if problems is not None else source.problems)
    found.append(Problem("unknown-format", source.name, message, line))
    return Conversation(FORMAT, (source.name,), problems=tuple(found), label=source.name)


def _declared(value: Any) -> frozenset[str]:
    """The tools a conversation held as an object declares (a logged request's ``tools``)."""
    return tool_names(value.get("tools")) if isinstance(value, dict) else frozenset()


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
    element tells (only a top-level list can be one, or tau2-bench's ``simulations``)."""
    first = next((e for e in document.elements if e.is_object and e.end is not None), None)
    if document.base not in ("", "/" + SIMULATIONS) or first is None:
        return False
    text = source.data[first.start:first.end].decode("utf-8", errors="replace")
    found = document.value(document.elements.index(first), text)
    return found is not None and not is_message(found[0]) and _messages(found[0]) is not None


def _conversations(source: Source, document: Document,
                   error_when: ErrorWhen | None) -> Iterator[tuple[int | None, Conversation]]:
    """Each element of the document as a conversation, parsed when it is reached."""
    lost = bool(document.elements) and document.cut_after_elements()
    several = len(document.elements) > 1 or lost  # numbered as the whole list would be
    for number, element in enumerate(document.elements, 1):
        problems: list[Problem] = []
        text = decoded(source, element, problems)
        found = document.value(number - 1, text) if element.is_object and element.end is not None else None
        messages = _messages(found[0]) if found is not None else None
        if messages is None:
            message = f"element {number} of the list is not a conversation; skipped"
            problems.append(Problem("unknown-record", source.name, message, element.line))
            yield (number if several else None), Conversation(FORMAT, (source.name,), problems=tuple(problems))
            continue
        inner = message_array(text)
        unread, reply, request = unread_lists(source.name, inner, element.line, text)
        problems += unread + no_message(source.name, messages, element.line)
        locate = element_locator(source.name, text, element.line, f"/{number - 1}", inner, messages)
        conversation = read_messages(messages, locate, source.name, problems, f"{source.name}#{number}",
                                     error_when=error_when, reply_unread=reply,
                                     tools=_declared(found[0] if found is not None else None),
                                     awaits_completion=request)
        yield (number if several else None), replace(conversation, lossy=lossy_messages(source, [element], problems))
    if lost:  # each conversation read is whole, but those after them are lost: one more that gives no run
        yield len(document.elements) + 1, _empty(source, "the document is cut short after its last conversation "
                                                  "read (it never closes): the conversations after it are lost",
                                                  source.last_line)
