"""stream-json, what ``claude -p --output-format stream-json`` prints: how it is told
from other logs, and what its result records say of how the run ended.

A run prints one ``result`` record per turn, last: a run with none was cut short, one
whose result does not say it succeeded ended in an error, and a turn after the last
result has none (``unfinished``); a last turn that holds no words of the agent leaves
the words before it as an earlier turn's answer, never the reply (``unanswered``).
``claude_code`` reads the records themselves, ``claude_denials`` the calls the harness refused.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.record import Origin, Text
from referee.engine.run.importers.source import json_container
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem
from referee.engine.run.safejson import JSON_TOKEN

if TYPE_CHECKING:
    from referee.engine.run.importers.claude_records import Reader

# The records ``claude -p --output-format stream-json`` prints: a subagent's messages are
# among them, marked by the id of the Task call that started it (``parent_tool_use_id``).
STREAM_TYPES = ("system", "user", "assistant", "result")  # a tuple: a record's "type" may be any JSON value
PARENT_CALL = "parent_tool_use_id"
# What stream-json messages carry and no chat message does: a JSON array whose head
# names it (claude-code-action's execution file) is a Claude Code log.
STREAM_KEYS = re.compile(r'"parent_tool_use_id"\s*:')
NO_WORDS = -1  # said of a stream-json run whose last turn ended with no words: it has no reply
_MEMBER = re.compile(r"[ \t\n\r]*:[ \t\n\r]*")  # after a string: it is a key, its value next


class Interleaved(ValueError):
    """A stream-json file in which one turn holds messages of the main agent of two
    sessions (two runs printed into one file at once): whose call or words each is
    can be told, but not which run the file is, so no run is read from it;
    ``str(error)`` says where."""


def same_session(line: int, rec: dict, turn: tuple[int, Any]) -> None:
    """Interleaved when ``rec``, a message of the main agent at ``line``, names another
    session than the messages before it in its turn (``turn``: where the turn starts,
    and the session its last message names). A turn after a result may name another
    (``claude -p --resume`` has named a new one): that is the same run going on."""
    if _of_another_session(rec, turn):
        raise Interleaved(f"line {line}: a message of session {rec.get('session_id')!r}, in a turn (begun line "
                          f"{turn[0]}) whose messages before it name session {turn[1]!r}: two runs were written "
                          "into this file at once; give each run's output in a file of its own")


def foreign_result(line: int, rec: dict, turn: tuple[int, Any]) -> tuple[int, Any, Any] | None:
    """``(line, its session, the turn's)`` when ``rec``, a result ending the turn
    ``turn``, names another session than that turn's messages, else None. The stream's
    last result so is said by ``unfinished``; one that more records follow is another
    run's, written among this one's (``interleaved``)."""
    return (line, rec.get("session_id"), turn[1]) if _of_another_session(rec, turn) else None


def _of_another_session(rec: dict, turn: tuple[int, Any]) -> bool:
    """Whether ``rec`` names another session than the messages of the turn ``turn``
    (begun, and holding messages that name one)."""
    return bool(turn[0]) and turn[1] is not None and rec.get("session_id") != turn[1]


def interleaved(foreign: tuple[int, Any, Any], line: int) -> None:
    """Interleaved, for a result of another session (``foreign_result``) that the
    stream goes on after (``line``: the next result or message)."""
    at, session, own = foreign
    raise Interleaved(f"line {at}: a result of session {session!r} ends a turn whose messages name session "
                      f"{own!r}, and the stream goes on (line {line}): two runs were written into this file at "
                      "once; give each run's output in a file of its own")


def is_stream_record(value: dict) -> bool:
    """A record ``claude -p --output-format stream-json`` prints."""
    return value.get("type") in STREAM_TYPES and isinstance(value.get("session_id"), str)


def array_of_stream(head: str) -> bool:
    """True for the head of a JSON array of stream-json messages (claude-code-action's
    execution file), which may be indented, or larger than the head: its messages name
    ``parent_tool_use_id``, or its first record, cut short by the head, is one
    (``opens_stream``)."""
    if head.lstrip()[:1] != "[":
        return False
    return STREAM_KEYS.search(head) is not None or opens_stream(head)


def opens_stream(head: str) -> bool:
    """True for a head whose first record (the first line of JSON lines, the first
    element of an array), cut short by it, is one stream-json prints by the members the
    head holds whole: its first is a ``system`` ``init`` record listing hundreds of tools
    and MCP servers, which may run past any head."""
    members = _first_members(head)
    # told so too when session_id lies past the head
    return is_stream_record(members) or (members.get("type") == "system" and members.get("subtype") == "init")


def _first_members(head: str) -> dict[str, str]:
    """The members of the first record of ``head`` (the object it opens, or the first
    element of the array it opens) whose values are strings written whole within it (a
    key and its value: ``"type": "system"``); what nests deeper, or lies past the head,
    is not looked at."""
    members: dict[str, str] = {}
    level = 2 if head.lstrip()[:1] == "[" else 1  # how deep the record's members lie
    depth, key = 0, None  # key: the last key met in the record, and where its value starts
    for match in JSON_TOKEN.finditer(head):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth == level and token == "[":
                break  # the record is no object
        elif token in ("]", "}"):
            depth -= 1
            if depth < level:
                break  # the record has ended
        elif depth == level:
            colon = _MEMBER.match(head, match.end())
            if colon is not None:
                key = (token, colon.end())
            elif key is not None and key[1] == match.start():
                pair = json_container(f"[{key[0]}, {token}]")  # None for a string the head cuts short
                if pair is not None and all(isinstance(part, str) for part in pair[0]):
                    members.setdefault(*pair[0])
    return members


def opens_turn(rec: dict) -> bool:
    """Whether a stream-json record belongs to a turn, which its result record ends: a
    message of the main agent, an ``init`` record (``claude -p --resume`` run after
    the first, appended to its output, starts with one of its own), or a record of work
    under way (``under_way``)."""
    if rec.get(PARENT_CALL) is not None:
        return False
    return rec.get("type") in ("user", "assistant") or (rec.get("type") == "system" and rec.get("subtype") == "init") \
        or under_way(rec)


def streams_turn(rec: dict) -> bool:
    """Whether ``rec`` is a ``stream_event`` of the main agent (``--include-partial-
    messages``): the model's output of a message under way, so of a turn whose result
    is still to come. It is no stream record (the stream is told by its messages), but
    one after the last result says the next turn began."""
    return rec.get("type") == "stream_event" and rec.get(PARENT_CALL) is None and \
        isinstance(rec.get("session_id"), str)


def under_way(rec: dict) -> bool:
    """Whether a ``system`` record says Claude Code is at work on a turn whose result is
    still to come: a ``status`` that names what it is doing (``compacting``,
    ``requesting``) or how a compaction ended (``compact_result``), or a compaction's
    ``compact_boundary``. ``/compact`` prints its status records before its turn's
    ``init``, a compaction made on its own prints them inside the turn, and either
    turn ends with a result record: a stream that ends after one of them was cut while
    that work went on, never finished. A ``status`` naming nothing (``null``, with a
    permission mode) says no work. So does an ``api_retry``: Claude Code retries a request
    for the model's next message, which only a turn makes, and that turn ends with a result."""
    if rec.get("type") != "system":
        return False
    if rec.get("subtype") in ("compact_boundary", "api_retry"):
        return True
    return rec.get("subtype") == "status" and (rec.get("status") is not None or "compact_result" in rec)


def _is_init(rec: dict) -> bool:
    """Whether a stream-json record opens a turn of the main agent as ``claude -p`` does
    each time it starts one: its ``init`` record."""
    return rec.get("type") == "system" and rec.get("subtype") == "init" and rec.get(PARENT_CALL) is None


def unfinished(name: str, stream: int, results: list[tuple[int, dict]], turn: tuple[int, Any], values: list,
               problems: list[Problem]) -> int | None:
    """Where a stream-json run is seen not to have finished (None when it did, or the
    source is a session log, which has no result record): it has no ``result`` record
    (cut short: a timeout, a crash), or its result does not say it succeeded (``is_error``
    not false, or a ``subtype`` other than ``success``: it ended in an error, ran out of
    turns), or a message of the main agent comes after its last result (``turn``: where
    a turn, which ends with a result of its own, starts with none, and the session it
    names), or it opens more turns (``init`` records) than it holds results (a turn cut
    short, whose result, which may come after a later turn's, was never printed), or its
    last result names another session than its last turn's (a record of another run:
    how this one ended is not said). Its last words read are then no
    finished reply. A turn with no result of its own was cut short, so the calls made
    after the stream's last line are not in it either (``cut_short``)."""
    if not stream:
        return None
    end = results[-1] if results else None
    last = values[-1][0] if values else stream  # the stream's last line
    if end is not None and turn[0]:
        problems.append(Problem("no-result", name, f"this turn, after the stream's last result record (line "
                                f"{end[0]}), has none: it was cut short, and its last words read may not be its "
                                "reply, so the response is unknown", turn[0]))
        return cut_short(name, turn[0], last, problems)
    if end is None:
        problems.append(Problem("no-result", name, "the stream has no result record: the run was cut short, and "
                                "its last words read may not be its reply, so the response is unknown", last))
        return cut_short(name, last, last, problems)
    opened = sum(1 for _, rec in values if isinstance(rec, dict) and is_stream_record(rec) and _is_init(rec))
    if opened > len(results):
        problems.append(Problem("no-result", name, f"the stream opens {opened} turns (init records) and holds "
                                f"{len(results)} result records: a turn was cut short before its result (Claude "
                                "Code may print a turn's result after a later turn's), so its last words read may "
                                "not be its reply, and the response is unknown", last))
        return cut_short(name, last, last, problems)
    line, rec = end
    if turn[1] is not None and rec.get("session_id") != turn[1]:
        problems.append(Problem("no-result", name, f"the stream's last result record names session "
                                f"{rec.get('session_id')!r}, not {turn[1]!r}, whose last turn it follows: how that "
                                "turn ended is not said, so the response is unknown", line))
        return cut_short(name, line, last, problems)
    return _run_error(name, end, problems)


def cut_short(name: str, line: int, last: int, problems: list[Problem]) -> int:
    """``line``, where a stream-json run is seen to have no result record for its last
    turn, having said that its calls may be incomplete, at the stream's ``last`` line:
    a stream is cut short by a timeout or a crash, or by a copy cut at a line, and
    nothing in it tells which, so a call made after its last line (a subagent's, still
    running in the background, too) may be missing, and a check that no such call was
    made must not pass; nor may a check that the harness said nothing of a kind
    (``harness-may-be-missing``)."""
    problems.append(Problem(CALLS_MAY_BE_MISSING, name, "the stream ends here with no result record for its last "
                            "turn: calls made after this line are not in it, so no check over the run's calls can "
                            "be decided", last))
    # what the harness said after the cut (an error it wrote, a hook's output) is lost the same way
    problems.append(Problem(HARNESS_MAY_BE_MISSING, name, "the stream ends here with no result record for its last "
                            "turn: what the harness said after this line (an error, a hook's output) is not in it, "
                            "so no check over the harness text can be decided", last))
    return line


def _run_error(name: str, end: tuple[int, dict], problems: list[Problem]) -> int | None:
    """The line of a result record that does not say its turn succeeded, said as a
    problem (``run-error``); None for one that does."""
    line, rec = end
    subtype = rec.get("subtype")
    if says_success(rec):
        return None
    how = f" ({subtype})" if isinstance(subtype, str) else ""
    said = (f"says the run ended in an error{how}" if rec.get("is_error") is True else
            f"does not say the run succeeded (is_error is {rec.get('is_error')!r}, subtype {subtype!r})"
            if rec.get("is_error") is False else
            f"does not say the run succeeded (is_error is {rec.get('is_error')!r}){how}")
    problems.append(Problem("run-error", name, f"the result record {said}: its last words read are no finished "
                            "reply, so the response is unknown", line))
    return line


def says_success(rec: dict) -> bool:
    """Whether a result record says its turn succeeded: ``is_error`` false, and no
    subtype other than ``success`` (Claude Code has written error_max_turns with
    ``is_error`` false: the subtype says it too)."""
    return rec.get("is_error") is False and rec.get("subtype") in (None, "success")


def error_words(rec: dict) -> tuple[list[str], list[Any]]:
    """What a result record that does not say its turn succeeded says of the error:
    its ``errors`` and, when ``is_error`` is true, its ``result`` (then no reply).
    Claude Code's words, so harness text; the second list holds those of another shape
    than text, not read. A successful result's ``result`` is the reply again: none."""
    if says_success(rec):
        return [], []
    errors = rec.get("errors")
    told = list(errors) if isinstance(errors, list) else [errors]
    told = ([rec.get("result")] if rec.get("is_error") is True else []) + told
    return ([item for item in told if isinstance(item, str) and item.strip()],
            [item for item in told if item is not None and not isinstance(item, str)])


def unanswered(name: str, reader: Reader, results: list[tuple[int, dict]], problems: list[Problem]) -> int | None:
    """Where a stream-json run's last turn (after the result record before the last)
    holds no words of the agent: the words read before it answer an earlier turn, never
    the last, so they are no reply. When its result says the turn ended with no words
    (``result`` empty), the run has no reply and its reply is left empty (``NO_WORDS``);
    otherwise (or when no message of the agent lies in that turn at all, so nothing shows
    it took one) the words of that turn were not read, and the response is unknown (the
    result's line). A last result that names those words again is no turn of its own,
    but then the turn that holds them ended with the result after them: one that does
    not say it succeeded leaves them no finished reply either."""
    ended = results[-2][0] if len(results) > 1 else 0
    if not ended or not reader.last_text or reader.last_text[-1].origin.line > ended:
        return None
    line, rec = results[-1]
    if _same_words(rec.get("result"), reader.last_text):  # a result printed again for the reply read
        said = reader.last_text[-1].origin.line
        return _run_error(name, next(end for end in results if end[0] > said), problems)
    if rec.get("result") == "" and reader.last_said > ended:  # the agent spoke in that turn, with no words
        problems.append(Problem("no-reply", name, f"the last turn, after the result record of line {ended}, ends "
                                "with no words of the agent (its result is empty): the words before it answer an "
                                "earlier turn, so the run has no reply and the response is empty", line))
        return NO_WORDS
    problems.append(Problem("no-reply", name, f"the last turn, after the result record of line {ended}, holds no "
                            "words of the agent that were read: the words before it answer an earlier turn, so the "
                            "response is unknown", line))
    return line


def _same_words(told: Any, texts: list[Text]) -> bool:
    """Whether a result's ``result`` is the words of ``texts``, however they are spaced."""
    return isinstance(told, str) and told.split() == " ".join(text.text for text in texts).split()


def told_reply(name: str, end: tuple[int, dict] | None, problems: list[Problem]) -> tuple[Text, ...]:
    """The response of a stream-json run that finished with no reply read (no words of
    the agent, or its last words came with a call): when its result record names the
    run's last words (``result``), no assistant record read holds them (a line of the
    stream lost, a message not printed whole), so the response is unknown, never none.
    So when it holds the answer of a run given ``--json-schema`` (``structured_output``,
    which a ``StructuredOutput`` call gave, and ``result`` may leave empty)."""
    if end is None:
        return ()
    line, rec = end
    told = rec.get("result")
    if rec.get("structured_output") is not None and not (isinstance(told, str) and told.strip()):
        problems.append(Problem("unread-text", name, "the result record holds the run's answer as structured_output, "
                                "and no assistant record holds it as words: the response is unknown", line))
        return (Text("agent", "reply", "", Origin(name, line), unsure=True),)
    if not isinstance(told, str) or not told.strip():
        return ()
    problems.append(Problem("unread-text", name, "the result record names the run's last words, and no assistant "
                            "record read holds them: the response is unknown", line))
    return (Text("agent", "reply", "", Origin(name, line), unsure=True),)


def checked_reply(name: str, end: tuple[int, dict] | None, response: tuple[Text, ...],
                  problems: list[Problem]) -> tuple[Text, ...]:
    """The reply read of a finished stream-json run, unsure when its result record names
    last words (``result``) that are not among the reply's words, however spaced (the
    text blocks of a message may be joined with no space between): an assistant record
    that held them was lost or not printed whole, so the reply read is not the run's
    answer. Claude Code names the last text block of a message split over several
    lines, so a result that is a part of the reply agrees with it."""
    if end is None or not response or any(text.unsure for text in response):
        return response
    line, rec = end
    told = rec.get("result")
    if not isinstance(told, str) or not told.strip():
        return response
    if "".join(told.split()) in "".join("".join(text.text for text in response).split()):
        return response
    problems.append(Problem("unread-text", name, "the result record names last words that the reply read does not "
                            "hold: an assistant record that held them was not read, so the response is unknown", line))
    return tuple(replace(text, unsure=True) for text in response)
