"""What an importer reads out of a source, before anything is written.

Every importer turns its source into one ``Conversation``: an ordered list of
entries (tool calls, agent text, harness text), the reply the user saw, and the
problems met on the way. Each entry keeps its ``Origin`` (source file name and
1-based line), so the run written from it can map every line back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from referee.dsl.frozen import frozen
from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.model import Problem
from referee.engine.run.status_words import UNANSWERED

# Kinds of harness text: written by the harness or the user, never by the agent.
EVAL_PROMPT = "eval prompt"
USER = "user"
SYSTEM = "system"
SYSTEM_REMINDER = "system-reminder"
HOOK = "hook"
COMPACTION = "compaction"
SUBAGENT = "subagent"

NO_RESULT = UNANSWERED  # the status of a call whose result never came


@frozen
class Origin:
    """Where something was read: a source file's name (no folder) and a 1-based line;
    in a source line that holds many things (a conversation on one line of JSON),
    also the JSON Pointer of the value (RFC 6901) and its 1-based column."""

    source: str
    line: int
    pointer: str = ""
    column: int | None = None


@frozen
class Call:
    """One tool call as the source recorded it.

    ``args`` is the parsed JSON (or the raw text when it was not JSON); ``result``
    is None only when no result came (``status`` is then ``no_result``). Each holds
    what a JSON decoder gives (objects with text keys, lists, texts, numbers, booleans,
    null): the writer takes such a value as what its JSON text reads back as
    (``transcript_direct.reads_as_is``).
    ``subagent`` holds the work of a subagent this call started, kept apart.
    ``unread`` names the fields (``args``, ``return``) the source held in a form
    that could not be read (arguments that are not JSON): checks on them are ERRORs.
    """

    tool: str
    args: Any
    result: Any
    status: str
    origin: Origin
    result_origin: Origin | None = None
    call_id: str | None = None
    subagent: "Conversation | None" = None
    tool_origin: Origin | None = None  # where the tool's name is, when not on the call's line
    unread: frozenset[str] = frozenset()


@frozen
class Text:
    """Text that is not a tool call. ``kind`` is ``agent`` (the agent's own words,
    ``title`` says which: text, thinking, a log section) or a harness kind.

    With ``per_line`` each line of ``text`` sits on its own source line, starting
    at ``origin.line`` (a Markdown log); otherwise all of it sits on that line (JSON).
    """

    kind: str
    title: str
    text: str
    origin: Origin
    per_line: bool = False
    unsure: bool = False  # read from bytes that are not UTF-8 (``lossy``): not what the source says


Entry = Call | Text


def call_at(entries: list[Entry], position: int) -> Call:
    """The call at ``position``: importers remember the positions of calls only."""
    entry = entries[position]
    if not isinstance(entry, Call):
        raise TypeError(f"entry {position} is not a tool call")
    return entry


def answered_again(entries: list[Entry], position: int, problems: list[Problem], origin: Origin) -> None:
    """The call at ``position`` answered a second time, differently (at ``origin``):
    which answer counts is not said, so its status and return are unknown (an answer
    repeated the same is no second answer: the importer tells them apart)."""
    call = call_at(entries, position)
    entries[position] = replace(call, unread=call.unread | {"status", "return"})
    problems.append(Problem("status-unknown", origin.source, "a second, different answer to this call: its status "
                            "and return are unknown", origin.line))


def answered_unread(entries: list[Entry], position: int, problems: list[Problem], origin: Origin, why: str) -> None:
    """The call at ``position`` answered at ``origin`` in a way not read (``why``): its
    status and return are unknown, never none."""
    call = call_at(entries, position)
    entries[position] = replace(call, result_origin=origin, unread=call.unread | {"status", "return"})
    problems.append(Problem("status-unknown", origin.source, f"{why}: its status and return are unknown", origin.line))


def unanswered_after(entries: list[Entry], problems: list[Problem],
                     pending: list[tuple[Origin, str, list[int]]]) -> None:
    """Each call open at something not read (``pending``: where, what, the calls then open)
    and never answered after it: its answer may be there, so its status and return are
    unknown, never none (left open, a failed call read as one never answered, and
    ``no calls with status error`` passed). A call answered after it is read by its answer."""
    for origin, what, positions in pending:
        for position in positions:
            call = call_at(entries, position)
            if call.result_origin is None:
                answered_unread(entries, position, problems, origin, f"{what}, not read, may hold the answer to the "
                                f"call at line {call.origin.line}, never answered after it")


def unplaced_answer(problems: list[Problem], origin: Origin, call_id: str | None) -> None:
    """A tool's answer (at ``origin``) that no call read can take: its id names none, or
    it names no call at all. It shows a call the record does not hold, or answers a
    call still open under an id that does not match; which, the source does not say, so
    the run's calls are not all known (a check over them is an ERROR, never a pass on
    the calls that were placed)."""
    named = f"{call_id!r}" if call_id is not None else "no call id"
    problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, f"a tool's answer for {named} that no call of the "
                            "run can take: the call it answers is missing or unknown, so no check over the run's "
                            "calls can be decided", origin.line))


@dataclass(frozen=True)
class Conversation:
    """One imported conversation: what becomes one run folder."""

    format: str
    sources: tuple[str, ...]
    entries: tuple[Entry, ...] = ()
    response: tuple[Text, ...] = ()  # the replies the user saw, in order
    metrics: dict | None = None
    timing: dict | None = None
    problems: tuple[Problem, ...] = ()
    label: str = ""  # names the run folder: the source's stem, plus a number when one source holds several
    placeholders: tuple[tuple[str, str], ...] = ()  # (text, placeholder): machine-specific text to replace
    options: tuple[tuple[str, str], ...] = ()  # how the source was read (("error_when", REGEX)): in the source map
    # The SHA-256 of the source's bytes, and "#k" for the k-th conversation of a source
    # holding several: an earlier import is replaced only by an import of the same.
    origin: str = ""
    # (source, first line, last line) of each message of a JSON document read with
    # replacement characters (``lossy``); lines of other sources are in ``problems``
    lossy: tuple[tuple[str, int, int], ...] = ()
    # the run's JSON files (``outputs/metrics.json``, ``timing.json``) that the source
    # has but that could not be read: written marked unread, so a check on one is an ERROR
    unread_files: tuple[str, ...] = ()
    # the executor's outputs/user_notes.md beside a skill-creator log, as written
    user_notes: str | None = None
    extra: dict = field(default_factory=dict, compare=False)
    # finds the column of a place cited by source and JSON Pointer alone (column None),
    # as a run graded in memory leaves them until one is cited (``openai_document``)
    columns: Callable[[str, str], int | None] | None = field(default=None, compare=False, repr=False)

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(e for e in self.entries if isinstance(e, Call))
