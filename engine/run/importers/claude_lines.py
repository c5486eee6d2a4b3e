"""The records of a Claude Code session's file: its JSON lines, or the elements of the
one JSON array it is (claude-code-action's execution file), each at the line it starts
on, and the problems met reading them. A line (or an element) that could not be read
may have held a tool call, or a turn of the user: either is said, so that no check
over what it may have held passes on what was read around it. What a line read as no
record may have held is ``claude_unread``'s; ``claude_code`` puts the session together."""

from __future__ import annotations

from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.claude_unread import may_be_turn
from referee.engine.run.importers.jsondoc import message_array
from referee.engine.run.importers.source import CALL_WORDS, SKIPPED, Source, json_lines, may_hold
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem


def session_records(source: Source) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """``(line, record)`` of each record of a session, and the problems met: its JSON
    lines, or the elements of the one JSON array it is (claude-code-action's execution
    file holds the stream-json messages so), each at the line it starts on. An element
    that cannot be read, or an array cut short, is reported as a line that cannot be
    (``bad-json``, ``truncated``): it may hold a call, or the last words."""
    document = message_array(source.data) if source.data.lstrip()[:1] == b"[" else None
    if document is None or document.base:
        return _session_lines(source)
    values: list[tuple[int, Any]] = []
    problems = list(source.problems)
    turns: list[int] = []  # the lines of records that could not be read and may be turns of the user
    for index, element in enumerate(document.elements):
        raw = source.data[element.start:element.end]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        found = document.value(index, text) if text is not None and element.end is not None else None
        if found is not None:
            values.append((element.line, found[0]))
            continue
        why = ("the document is cut short inside it" if element.end is None else
               "it is not UTF-8" if text is None else "it is not JSON (or nested too deep)")
        problems.append(Problem("truncated" if element.end is None else "bad-json", source.name,
                                f"record {index + 1} cannot be read: {why}; skipped", element.line))
        if may_be_turn(raw.decode("utf-8", "replace")):
            turns.append(element.line)
        if element.end is None or may_hold(raw.decode("utf-8", "replace"), CALL_WORDS):
            problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, "this record could not be read and may hold "
                                    "a tool call: no check over the run's calls can be decided", element.line))
    if document.cut_after_elements():
        line = source.last_line
        problems.append(Problem("truncated", source.name, "the array of records is cut short: a record may be lost",
                                line))
        problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, "the array of records is cut short and may have "
                                "lost a tool call: no check over the run's calls can be decided", line))
        turns.append(line)
    return values, problems + _turns_unread(source.name, turns)


def _session_lines(source: Source) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """``(line, record)`` of each JSON line of a session, and the problems met: a line
    that could not be read may be a turn of the user too (``_turns_unread``)."""
    values, problems = json_lines(source, CALL_WORDS)
    skipped = skipped_lines(problems)
    texts = _lines_at(source.data, skipped)
    return values, problems + _turns_unread(source.name, [n for n in skipped if may_be_turn(texts[n])])


def skipped_lines(problems: list[Problem]) -> list[int]:
    """The lines that could not be read (cut short, not JSON, nested too deep), from the
    problems met reading them."""
    return [p.line for p in problems if p.code in SKIPPED and p.line]


def _turns_unread(name: str, lines: list[int]) -> list[Problem]:
    """``harness-may-be-missing`` at the first of ``lines``, those of records that could
    not be read and may be turns of the user or text the harness wrote
    (``claude_unread.may_be_turn``): a check over the harness text is then an ERROR,
    never a pass on the turns read around them."""
    if not lines:
        return []
    return [Problem(HARNESS_MAY_BE_MISSING, name, "a record that could not be read may be a turn of the user: no "
                    "check over the harness text can be decided", min(lines))]


def _lines_at(data: bytes, numbers: list[int]) -> dict[int, str]:
    """The text of the lines ``numbers`` of ``data`` (counted as ``Source`` counts
    them), found in one pass over its bytes, up to the last of them: the lines that
    could not be read are few, and their text is not kept by the reader."""
    wanted, found = set(numbers), {}
    at, number, last = 0, 0, max(numbers, default=0)
    while number < last and at <= len(data):
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        number += 1
        if number in wanted:
            found[number] = data[at:end].decode("utf-8", "replace")
        at = end + 1
    return found
