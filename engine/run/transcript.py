"""The dual-section transcript parser.

A transcript is Markdown. ``## [tool_calls] Step N: title`` blocks are the raw tool
log (``Tool:``, ``Args:``, ``Return:``, ``Status:`` lines) and become ``ToolCall``s;
``## [agent_notes] Step N: title`` blocks and every other section (``## Eval
Prompt``, ``## Final Result``, free-form ``### Step N`` logs) are agent prose and
become ``Note``s. Prose never becomes a tool call, however much it looks like one.

The parser never raises and is linear in the size of the text: one regex over the
whole text finds the only lines that can cut it (headings and code fences), so Python
code runs per section rather than per line; each section's fields are then read once.
Every regex is anchored and free of nested quantifiers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from referee.engine.run.model import Location, Note, Problem, ToolCall, Transcript
from referee.engine.run.tool_log import CallReader, Line, fence_closes, fence_open, plain_call

TRANSCRIPT = "outputs/transcript.md"

_HEADING = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
# The only lines that can open a section or open/close a fence: _HEADING and the fence
# both need one of these characters after at most three spaces. Searching for the
# line break first is several times faster than a multi-line "^" tried everywhere.
_MARK = re.compile(r" {0,3}[#`~]")
_NEXT_MARK = re.compile(r"\n {0,3}[#`~]")
_TAG = re.compile(r"\[[ \t]*(tool[ _-]?calls|agent[ _-]?notes)[ \t]*\][ \t]*(.*)", re.IGNORECASE | re.DOTALL)
_STEP = re.compile(r"(?:step|步骤)[ \t]*([0-9]{1,9})(?![0-9])[ \t]*[:：.\-–—]?[ \t]*(.*)", re.IGNORECASE | re.DOTALL)


@dataclass
class _Section:
    kind: str  # "tool_calls", "agent_notes", "prose" or "preamble"
    line: int  # the heading line (0 for the preamble)
    step: int | None
    title: str
    body: str | None = None  # the lines after the heading, joined by "\n"; None when there are none
    first: int = 1  # the line number of the body's first line

    def lines(self) -> list[Line]:
        return [] if self.body is None else list(enumerate(self.body.split("\n"), self.first))


def parse_transcript(text: str, file: str = TRANSCRIPT, report: str | None = None) -> Transcript:
    """Parse transcript text into tool calls, notes, problems and the eval prompt.

    ``file`` (relative to the run directory) goes into every element's Location;
    ``report`` is the path used in problems (defaults to ``file``). Element lines
    are 1-based: a call's or note's line is its heading line; a payload's line is
    the line where its value starts.
    """
    report = file if report is None else report
    text = text.removeprefix("\ufeff")
    if "\r" in text:  # CRLF and lone CR end lines too; after this every line ends in "\n"
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    sections, problems = _segment(text, report)
    builder = _Builder(file, report, problems)
    for section in sections:
        builder.add(section)
    return Transcript(tuple(builder.calls), tuple(builder.notes), tuple(builder.problems), builder.prompt)


# --- pass 1: cut the text into sections -------------------------------------------------


def _segment(text: str, report: str) -> tuple[list[_Section], list[Problem]]:
    """Split the text at headings; headings inside fenced code blocks are code, not headings.

    Only the lines ``_MARK`` finds are looked at; line numbers are counted from
    offsets as the scan moves forward, so the whole cut stays linear.
    """
    sections = [_Section("preamble", 0, None, "")]
    body_at = 0  # offset where the current section's body starts
    fence: tuple[str, int, int] | None = None  # (char, length, line) of the open fence
    number, counted = 1, 0  # the line number at offset `counted`
    for start in _marked_lines(text):
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        number += text.count("\n", counted, start)
        counted = start
        if fence is None:
            section = _heading_section(line, number, sections[-1].kind)
            if section is not None:
                _close(sections[-1], text, body_at, start)
                sections.append(section)
                body_at = len(text) + 1 if end < 0 else end + 1
                continue
            fence = fence_open(line, number)
        elif fence_closes(line, fence):
            fence = None
    _close(sections[-1], text, body_at, len(text) + 1)
    problems = []
    if fence is not None:
        problems.append(Problem("unclosed-fence", report, "code fence never closed; it runs to the end", fence[2]))
    return sections, problems


def _marked_lines(text: str) -> Iterator[int]:
    """The offsets of the lines ``_MARK`` matches, in order."""
    if _MARK.match(text):
        yield 0
    for match in _NEXT_MARK.finditer(text):
        yield match.start() + 1


def _close(section: _Section, text: str, start: int, end: int) -> None:
    """Give ``section`` the lines from offset ``start`` up to the line starting at ``end``.

    ``end`` is one past the text for the last section, so a text ending in a line
    break keeps its final empty line, as a split into lines would.
    """
    if start < end:
        section.body = text[start:end - 1]
        section.first = section.line + 1


def _heading_section(line: str, number: int, current: str) -> _Section | None:
    if "#" not in line[:4]:  # cheap test first: most lines are not headings
        return None
    match = _HEADING.match(line)
    if match is None:
        return None
    level = len(match.group(1))
    title = _strip_closing_hashes(line[match.end():].strip())
    tagged = _TAG.match(title)
    if tagged is not None:
        kind = "tool_calls" if tagged.group(1).lower().startswith("tool") else "agent_notes"
        step, rest = _split_step(tagged.group(2).strip())
        return _Section(kind, number, step, rest)
    if level >= 3 and current in ("tool_calls", "agent_notes"):
        return None  # a sub-heading inside a tagged block is part of its body
    step, rest = _split_step(title)
    return _Section("prose", number, step, rest)


def _strip_closing_hashes(title: str) -> str:
    bare = title.rstrip("#")
    if bare != title and (not bare or bare[-1] in " \t"):
        return bare.rstrip()
    return title


def _split_step(title: str) -> tuple[int | None, str]:
    match = _STEP.match(title)
    if match is None:
        return None, title
    return int(match.group(1)), match.group(2).strip()


def _drop_comments(body: list[Line]) -> list[Line]:
    """Remove HTML comments that start a line (``<!-- ... -->``, possibly multi-line).

    A comment in the middle of a line may be data (an HTML return value), so it stays.
    Text after a comment's ``-->`` on the same line is kept.
    """
    kept: list[Line] = []
    in_comment = False
    for number, line in body:
        if in_comment:
            end = line.find("-->")
            if end >= 0:
                in_comment = False
                _keep_rest(kept, number, line[end + 3:])
            continue
        stripped = line.lstrip()
        if not stripped.startswith("<!--"):
            kept.append((number, line))
            continue
        end = stripped.find("-->", 4)
        if end < 0:
            in_comment = True
        else:
            _keep_rest(kept, number, stripped[end + 3:])
    return kept


def _keep_rest(kept: list[Line], number: int, rest: str) -> None:
    if rest.strip():
        kept.append((number, rest))


def _has_comment(section: _Section) -> bool:
    return section.body is not None and "<!--" in section.body


def _body_lines(section: _Section) -> list[Line]:
    """The section's lines with comments dropped; most sections have none to drop."""
    return _drop_comments(section.lines()) if _has_comment(section) else section.lines()


def _note_text(section: _Section) -> str:
    """A note's text: its lines without comments, joined, stripped."""
    if _has_comment(section):
        return "\n".join(line for _, line in _body_lines(section)).strip()
    return "" if section.body is None else section.body.strip()  # the same text, without a split


def _first_filled_line(section: _Section) -> int:
    """The number of the first line with text of a section whose note text is not empty."""
    return next(number for number, line in _body_lines(section) if line.strip())


class _Builder:
    """Turns sections into elements, numbering them in transcript order."""

    def __init__(self, file: str, report: str, problems: list[Problem]) -> None:
        self.file = file
        self.report = report
        self.problems = problems
        self.calls: list[ToolCall] = []
        self.notes: list[Note] = []
        self.prompt: str | None = None
        self.index = 0

    def add(self, section: _Section) -> None:
        if section.kind == "tool_calls":
            self._add_calls(section)
        else:
            self._add_note(section)

    def _add_note(self, section: _Section) -> None:
        text = _note_text(section)
        if section.kind == "preamble":
            if not text:
                return
            section = _Section("prose", _first_filled_line(section), None, "")
        if section.title.casefold() == "eval prompt" and section.step is None and self.prompt is None:
            self.prompt = text
        kind = "agent_notes" if section.kind == "agent_notes" else "prose"
        location = Location(self.file, section.line)
        self.notes.append(Note(self.index, section.step, section.title, text, kind, location))
        self.index += 1

    def _add_calls(self, section: _Section) -> None:
        plain = plain_call(section.body, section.first)
        reader = None if plain is not None else CallReader(_body_lines(section), self.report)
        for fields in [plain] if reader is None else reader.read():
            self.calls.append(self._call(section, fields))
            self.index += 1
        if reader is not None:
            self.problems.extend(reader.problems)

    def _call(self, section: _Section, fields: dict) -> ToolCall:
        tool = fields.get("tool") or None
        if tool is None:
            message = "[tool_calls] block has no Tool: line; the call has no tool name"
            self.problems.append(Problem("no-tool", self.report, message, section.line))
        return ToolCall(
            index=self.index,
            step=section.step,
            title=section.title,
            tool=tool,
            args=fields.get("args"),
            result=fields.get("return"),
            status=fields.get("status") or None,
            location=Location(self.file, section.line),
            status_line=fields.get("status_line"),
            tool_line=fields.get("tool_line"),
        )
