"""skill-creator executor logs: free-form Markdown the agent wrote itself.

The log's ``### Step N`` sections, ``**Tool**:`` and ``**Result**:`` lines are the
agent's account of what it did, not a record of it: every section becomes an
agent note (its heading kept, escaped, as the note's first line) and no tool call
is ever made from it. ``## Final Result`` (or ``## Final Answer``/``## Result``/
``## Response``/``## Output``) becomes the response. A ``metrics.json`` beside the
log and a ``timing.json`` beside it or one folder up are carried over as written
(they too come from the executor).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from referee.engine.run.importers.record import Conversation, Origin, Text
from referee.engine.run.importers.source import Source
from referee.engine.run.model import Problem
from referee.engine.run.safeio import read_json

FORMAT = "skill-creator-log"
_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_FINAL = re.compile(r"(?:final[ _-]*(?:result|answer|response|output)|result|response|output)s?[ \t]*:?", re.I)
_STEP = re.compile(r"#{2,4}[ \t]+step[ \t]*[0-9]", re.I | re.M)
_TOOL_LINE = re.compile(r"^\*\*(?:tool|tools|action|result)s?\*\*[ \t]*:", re.I | re.M)


def looks_like(text: str) -> bool:
    """True for Markdown with ``### Step N`` sections and ``**Tool**:`` lines (or a final
    result section) and no dual-section block outside code fences."""
    from referee.engine.run.transcript import parse_transcript

    parsed = parse_transcript(text)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if parsed.calls or any(tagged(note, lines) for note in parsed.notes):
        return False
    return log_shaped(text)


def log_shaped(text: str) -> bool:
    """The shape half of :func:`looks_like`, for a caller that has already parsed
    ``text`` and found no call and no tagged section: ``### Step N`` sections and
    ``**Tool**:`` lines (or a final result section)."""
    return bool(_STEP.search(text)) and bool(_TOOL_LINE.search(text) or re.search(r"^#{1,3}[ \t]+final", text, re.I | re.M))


_TAGGED = re.compile(r" {0,3}#{1,6}[ \t]*\[[ \t]*(?:agent[ _-]?notes|harness)[ \t]*\]", re.I)


def tagged(note: Any, lines: list[str]) -> bool:
    """True for a note whose heading (a line of ``lines``) is an ``[agent_notes]`` or
    ``[harness]`` tag (a forged ``[tool_calls]`` heading read as agent text is not)."""
    line = note.location.line
    return line is not None and 1 <= line <= len(lines) and _TAGGED.match(lines[line - 1]) is not None


def read_log(source: Source, folder: Path | None = None) -> Conversation:
    """The conversation of a log: notes per section, the closing section as the response."""
    sections = _sections(source.lines)
    entries: list[Text] = []
    response: list[Text] = []
    for line, heading, body_from, lines in sections:
        text = "\n".join(lines).strip("\n")
        if not text.strip():
            continue
        entries.append(Text("agent", "log section", text, Origin(source.name, line), per_line=True))
        if heading is not None and _FINAL.fullmatch(heading.strip()):
            body = lines[1:]
            skip = next((i for i, value in enumerate(body) if value.strip()), len(body))
            if body[skip:]:
                reply = "\n".join(body[skip:]).rstrip()
                response.append(Text("agent", "reply", reply, Origin(source.name, body_from + skip), per_line=True))
    problems = list(source.problems)
    metrics, timing = _beside(folder, problems)
    if response:
        response = response[-1:]
    return Conversation(FORMAT, (source.name,), tuple(entries), tuple(response), metrics, timing,
                        tuple(problems), source.name)


def _sections(lines: tuple[str, ...]) -> list[tuple[int, str | None, int, list[str]]]:
    """(heading line, heading title or None, first body line, lines with the heading)."""
    found: list[tuple[int, str | None, int, list[str]]] = [(1, None, 1, [])]
    fence: str | None = None
    for number, line in enumerate(lines, 1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
        elif opened:
            fence = opened.group(1)
        else:
            heading = _HEADING.match(line)
            if heading is not None and len(heading.group(1)) <= 3:
                found.append((number, heading.group(2), number + 1, [line]))
                continue
        found[-1][3].append(line)
    first = found[0]
    lines0 = first[3]
    skip = next((i for i, value in enumerate(lines0) if value.strip()), len(lines0))
    found[0] = (1 + skip, None, 1 + skip, lines0[skip:])
    return found


def _beside(folder: Path | None, problems: list[Problem]) -> tuple[Any, Any]:
    if folder is None:
        return None, None
    metrics = read_json(folder, "metrics.json")
    timing = read_json(folder, "timing.json") or read_json(folder.parent, "timing.json")
    values: list[Any] = []
    for found in (metrics, timing):
        if found is None:
            values.append(None)
            continue
        problems.extend(found.problems)
        values.append(_plain(found.value) if isinstance(found.value, dict) else None)
    return values[0], values[1]


def _plain(value: Any) -> Any:
    """JSON read with Decimal numbers, back to plain JSON values."""
    from decimal import Decimal

    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and "." not in str(value) and "E" not in str(value).upper() else float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
