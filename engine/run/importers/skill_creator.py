"""skill-creator executor logs: free-form Markdown the agent wrote itself.

The log's ``### Step N`` sections, ``**Tool**:`` and ``**Result**:`` lines are the
agent's account of what it did, not a record of it: every section becomes an
agent note (its heading kept, escaped, as the note's first line) and no tool call
is ever made from it. The response is the file the harness delivered when there
is one (``engine.run.importers.delivered``), else the log's ``## Final Result``
section, whole (``engine.run.executor_log``: its own headings, rules and lists
included, up to the next section the log format defines; with none, the response
is unknown), as a run graded as it lies reads it. A ``metrics.json`` beside the log
(or in the ``outputs/`` beside it) and a ``timing.json`` beside it or one folder up
are carried over as written (they too come from the executor), and so is a
``user_notes.md`` beside the log or in that ``outputs/``.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from referee.engine.run.executor_log import final_result, headings, log_shaped
from referee.engine.run.importers.delivered import delivered
from referee.engine.run.importers.record import Conversation, Origin, Text
from referee.engine.run.importers.source import Source
from referee.engine.run.importers.writer import METRICS, TIMING
from referee.engine.run.model import UNREADABLE, JsonFile, Problem
from referee.engine.run.safeio import read_json, read_text
from referee.engine.text import file_lines

FORMAT = "skill-creator-log"
_TAGGED = re.compile(r" {0,3}#{1,6}[ \t]*\[[ \t]*(?:agent[ _-]?notes|harness)[ \t]*\]", re.I)


def looks_like(text: str) -> bool:
    """True for Markdown with ``### Step N`` sections and ``**Tool**:`` lines (or a final
    result section) and no dual-section block outside code fences."""
    from referee.engine.run.transcript import parse_transcript

    parsed = parse_transcript(text)
    lines = file_lines(text)
    if parsed.calls or any(tagged(note, lines) for note in parsed.notes):
        return False
    return log_shaped(text)


def tagged(note: Any, lines: list[str]) -> bool:
    """True for a note whose heading (a line of ``lines``) is an ``[agent_notes]`` or
    ``[harness]`` tag (a forged ``[tool_calls]`` heading read as agent text is not)."""
    line = note.location.line
    return line is not None and 1 <= line <= len(lines) and _TAGGED.match(lines[line - 1]) is not None


def holds_log(source: Source) -> bool:
    """Whether the source has a section at all (a heading of level 1 to 3 outside
    code fences): a log is made of sections, so text with none (plain lines, a JSON
    document) holds no log, and importing it is an error, never a run of one note."""
    return bool(headings(source.lines))


def read_log(source: Source, folder: Path | None = None, response: str | None = None) -> Conversation:
    """The conversation of a log: notes per section, the delivered file or the
    final result section as the response. ``folder`` is where the log lies;
    ``response`` names the delivered file, relative to the run folder."""
    entries = [Text("agent", "log section", text, Origin(source.name, line), per_line=True)
               for line, text in _sections(source.lines)]
    problems = list(source.problems)
    reply = delivered(folder, response, source.name, problems) if folder is not None else None
    if reply is None:
        answer = final_result(source.text)
        if answer is not None:
            reply = (Text("agent", "reply", answer.text, Origin(source.name, answer.first), per_line=True),)
        elif entries:
            reply = _no_answer(source.name, problems)
    metrics, timing, unread = _beside(folder, problems)
    return Conversation(FORMAT, (source.name,), tuple(entries), reply or (), metrics, timing, tuple(problems),
                        source.name, unread_files=unread, user_notes=_user_notes(folder, problems))


def _no_answer(name: str, problems: list[Problem]) -> tuple[Text, ...]:
    """The response of a log with no ``## Final Result`` section: its answer may stand
    under a heading of another wording or language (``## Summary``, ``## 最终结果``),
    so it is unknown, as for the log graded where it lies; taken as no reply, a
    negative check on it passed on the answer the log shows."""
    problems.append(Problem("unread-text", name, "the log has no '## Final Result' section: its answer may stand "
                                                 "under another heading, so the response is unknown"))
    return (Text("agent", "reply", "", Origin(name, 1), unsure=True),)


def _sections(lines: tuple[str, ...]) -> list[tuple[int, str]]:
    """``(first line, text)`` of each section of the log (a heading of level 1 to 3
    outside code fences starts one; the text before the first is one too), blank
    sections left out."""
    starts = [1] + [line for line, _, _ in headings(lines) if line > 1]
    found = []
    for start, end in zip(starts, starts[1:] + [len(lines) + 1]):
        body = lines[start - 1:end - 1]
        skip = next((i for i, value in enumerate(body) if value.strip()), len(body))
        text = "\n".join(body[skip:]).strip("\n")
        if text.strip():
            found.append((start + skip, text))
    return found


def _beside(folder: Path | None, problems: list[Problem]) -> tuple[Any, Any, tuple[str, ...]]:
    """The executor's metrics and timing beside the log, and the run's files of those
    that are there but cannot be used (not JSON, not UTF-8, not a regular file): a run
    graded where it lies cannot use them either, so they are unread, never missing."""
    if folder is None:
        return None, None, ()
    # beside the log, or in outputs/ when the log lies beside it (the run folder)
    metrics = read_json(folder, "metrics.json") or read_json(folder, "outputs/metrics.json")
    timing = read_json(folder, "timing.json") or read_json(folder.parent, "timing.json")
    values: list[Any] = []
    unread: list[str] = []
    for found, written in ((metrics, METRICS), (timing, TIMING)):
        if found is None:
            values.append(None)
            continue
        problems.extend(found.problems)
        if _unusable(found):
            unread.append(written)
        values.append(_plain(found.value) if isinstance(found.value, dict) else None)
    return values[0], values[1], tuple(unread)


def _user_notes(folder: Path | None, problems: list[Problem]) -> str | None:
    """The executor's ``user_notes.md`` beside the log (or in the ``outputs/`` beside
    it), as written: a run graded where it lies reads it, so the imported run holds it
    too. One that cannot be read is said, and left out, as that run leaves it."""
    if folder is None:
        return None
    for rel in ("user_notes.md", "outputs/user_notes.md"):
        found = read_text(folder, rel)
        if found is not None:
            problems.extend(found.problems)
            return found.text
    return None


def _unusable(found: JsonFile) -> bool:
    """Whether a JSON file cannot be used, as a check on a run's metrics or timing
    reads it: its value was not read, or was read from bytes that are not UTF-8."""
    return (found.value is None and bool(found.problems)) or any(p.code in UNREADABLE for p in found.problems)


def _plain(value: Any) -> Any:
    """JSON read with Decimal numbers, back to plain JSON values where they are the
    same number: an integer as an int, a fraction as the float that is exactly it. Any
    other number (``1e999``, ``1e-999``, twenty digits, ``NaN``) stays the Decimal it
    was read as, written back as its digits, never a float that is another number."""
    if isinstance(value, Decimal):
        if value.is_finite() and value == value.to_integral_value() and _written_as_integer(value):
            return int(value)
        return float(value) if value.is_finite() and Decimal(repr(float(value))) == value else value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _written_as_integer(value: Decimal) -> bool:
    """Whether a Decimal was read from an integer's digits (no point, no exponent)."""
    return "." not in str(value) and "E" not in str(value).upper()
