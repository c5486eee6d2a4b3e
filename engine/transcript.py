"""The dual-section transcript parser.

A transcript is Markdown. ``## [tool_calls] Step N: title`` blocks are the raw tool
log (``Tool:``, ``Args:``, ``Return:``, ``Status:`` lines) and become ``ToolCall``s;
``## [agent_notes] Step N: title`` blocks and every other section (``## Eval
Prompt``, ``## Final Result``, free-form ``### Step N`` logs) are agent prose and
become ``Note``s. Prose never becomes a tool call, however much it looks like one.

The parser never raises and is linear in the size of the text: it walks the lines
once to cut sections and once per section to read fields; every regex is anchored
and free of nested quantifiers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.model import Location, Note, Payload, Problem, ToolCall, Transcript
from engine.safeio import bracket_balance, parse_json

TRANSCRIPT = "outputs/transcript.md"

_NEWLINE = re.compile(r"\r\n|\r|\n")
_HEADING = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_TAG = re.compile(r"\[[ \t]*(tool[ _-]?calls|agent[ _-]?notes)[ \t]*\][ \t]*(.*)", re.I | re.S)
_STEP = re.compile(r"(?:step|步骤)[ \t]*([0-9]{1,9})(?![0-9])[ \t]*[:：.\-–—]?[ \t]*(.*)", re.I | re.S)
_FIELD = re.compile(r"(tool|args|return|status)[ \t]*:(.*)", re.I | re.S)
_JSON_START = ("{", "[")

Line = tuple[int, str]  # (1-based line number, text without its line end)


@dataclass
class _Section:
    kind: str  # "tool_calls", "agent_notes", "prose" or "preamble"
    line: int  # the heading line (0 for the preamble)
    step: int | None
    title: str
    body: list[Line] = field(default_factory=list)


def parse_transcript(text: str, file: str = TRANSCRIPT, report: str | None = None) -> Transcript:
    """Parse transcript text into tool calls, notes, problems and the eval prompt.

    ``file`` (relative to the run directory) goes into every element's Location;
    ``report`` is the path used in problems (defaults to ``file``). Element lines
    are 1-based: a call's or note's line is its heading line; a payload's line is
    the line where its value starts.
    """
    report = file if report is None else report
    if text.startswith("\ufeff"):
        text = text[1:]
    sections, problems = _segment(_NEWLINE.split(text), report)
    builder = _Builder(file, report, problems)
    for section in sections:
        builder.add(section)
    return Transcript(tuple(builder.calls), tuple(builder.notes), tuple(builder.problems), builder.prompt)


# --- pass 1: cut the text into sections -------------------------------------------------


def _segment(lines: list[str], report: str) -> tuple[list[_Section], list[Problem]]:
    """Split lines at headings; headings inside fenced code blocks are code, not headings."""
    sections = [_Section("preamble", 0, None, "")]
    fence: tuple[str, int, int] | None = None  # (char, length, line) of the open fence
    for number, line in enumerate(lines, 1):
        if fence is None:
            section = _heading_section(line, number, sections[-1].kind)
            if section is not None:
                sections.append(section)
                continue
            fence = _fence_open(line, number)
        elif _fence_closes(line, fence):
            fence = None
        sections[-1].body.append((number, line))
    problems = []
    if fence is not None:
        problems.append(Problem("unclosed-fence", report, "code fence never closed; it runs to the end", fence[2]))
    return sections, problems


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


def _fence_open(line: str, number: int) -> tuple[str, int, int] | None:
    if "`" not in line[:4] and "~" not in line[:4]:
        return None
    match = _FENCE.match(line)
    if match is None:
        return None
    marks = match.group(1)
    if marks[0] == "`" and "`" in line[match.end():]:
        return None  # CommonMark: a backtick fence's info string has no backticks
    return marks[0], len(marks), number


def _fence_closes(line: str, fence: tuple[str, int, int]) -> bool:
    match = _FENCE.match(line)
    if match is None:
        return False
    marks = match.group(1)
    return marks[0] == fence[0] and len(marks) >= fence[1] and not line[match.end():].strip()


# --- pass 2: read each section ----------------------------------------------------------


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
        body = _drop_comments(section.body)
        if section.kind == "tool_calls":
            self._add_calls(section, body)
        else:
            self._add_note(section, body)

    def _add_note(self, section: _Section, body: list[Line]) -> None:
        text = "\n".join(line for _, line in body).strip()
        if section.kind == "preamble":
            if not text:
                return
            first = next(number for number, line in body if line.strip())
            section = _Section("prose", first, None, "")
        if section.title.casefold() == "eval prompt" and section.step is None and self.prompt is None:
            self.prompt = text
        kind = "agent_notes" if section.kind == "agent_notes" else "prose"
        location = Location(self.file, section.line)
        self.notes.append(Note(self.index, section.step, section.title, text, kind, location))
        self.index += 1

    def _add_calls(self, section: _Section, body: list[Line]) -> None:
        reader = _CallReader(body, self.report)
        for fields in reader.read():
            self.calls.append(self._call(section, fields))
            self.index += 1
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


class _CallReader:
    """Reads the ``Tool:``/``Args:``/``Return:``/``Status:`` fields of one block.

    Each ``Tool:`` line starts a call; the fields after it belong to that call, so
    a Return pairs with the call it follows. Fields before any ``Tool:`` line form
    a call without a tool name. A repeated field keeps its first value.
    """

    def __init__(self, body: list[Line], report: str) -> None:
        self.body = body
        self.report = report
        self.problems: list[Problem] = []
        self._parsed_line: tuple[str, object] | None = None  # spares parsing a one-line value twice

    def read(self) -> list[dict]:
        calls: list[dict] = []
        i = 0
        while i < len(self.body):
            number, line = self.body[i]
            match = _FIELD.match(line)
            if match is None:
                i += 1
                continue
            key, rest = match.group(1).lower(), match.group(2)
            if key == "tool" or not calls:
                calls.append({})
            i = self._field(calls[-1], key, rest, i)
        return calls or [{}]

    def _field(self, call: dict, key: str, rest: str, i: int) -> int:
        number = self.body[i][0]
        if key in ("tool", "status"):
            value, after = rest.strip(), i + 1
        else:
            value, after = self._payload(key, rest, i)
        if key in call:
            message = f"{key.capitalize()}: given twice in one call; the first is kept"
            self.problems.append(Problem("duplicate-field", self.report, message, number))
        elif key in ("tool", "status"):
            call[key] = value
            call[f"{key}_line"] = number
        else:
            call[key] = value
        return after

    def _payload(self, key: str, rest: str, i: int) -> tuple[Payload, int]:
        first = rest.strip()
        if first:
            lines, after = self._value_lines(first, self.body[i][0], i + 1)
        else:
            lines, after = self._value_below(i + 1)
        if not lines:
            problem = Problem("not-json", self.report, f"{key.capitalize()}: has no value", self.body[i][0])
            self.problems.append(problem)
            return Payload("", "", False, self.body[i][0]), after
        return self._parsed(key, lines), after

    def _value_below(self, i: int) -> tuple[list[Line], int]:
        """The value of a field whose line is empty: a fenced block or the next lines."""
        j = i
        while j < len(self.body) and not self.body[j][1].strip():
            j += 1
        if j == len(self.body) or _FIELD.match(self.body[j][1]):
            return [], i
        fence = _fence_open(self.body[j][1], self.body[j][0])
        if fence is not None:
            return self._fenced(j + 1, fence)
        return self._value_lines(self.body[j][1].strip(), self.body[j][0], j + 1)

    def _fenced(self, i: int, fence: tuple[str, int, int]) -> tuple[list[Line], int]:
        lines: list[Line] = []
        while i < len(self.body) and not _fence_closes(self.body[i][1], fence):
            lines.append(self.body[i])
            i += 1
        return _trim_blank(lines), i + 1

    def _value_lines(self, first: str, number: int, i: int) -> tuple[list[Line], int]:
        """A value starting on ``first``: one line if it parses alone, else its continuation.

        A value opening with a bracket continues until its brackets balance (JSON
        strings cannot hold raw line breaks, so balance is counted line by line);
        other text continues until the next field line.
        """
        lines = [(number, first)]
        result = parse_json(first, self.report)
        if result.ok:
            self._parsed_line = (first, result)
            return lines, i
        balance = bracket_balance(first) if first.startswith(_JSON_START) else None
        while i < len(self.body) and not _FIELD.match(self.body[i][1]):
            if balance is not None and balance <= 0:
                break
            lines.append(self.body[i])
            if balance is not None:
                balance += bracket_balance(self.body[i][1])
            i += 1
        return _trim_blank(lines), i

    def _parsed(self, key: str, lines: list[Line]) -> Payload:
        start = lines[0][0]
        text = "\n".join(line for _, line in lines).strip()
        cached = self._parsed_line
        if cached is not None and cached[0] == text:
            result = cached[1]
        else:
            result = parse_json(text, self.report, first_line=start, code="not-json")
        if result.ok:
            return Payload(text, result.value, True, start)
        problem = result.problem
        message = f"{key.capitalize()}: value kept as text: {problem.message}"
        self.problems.append(Problem(problem.code, self.report, message, start))
        return Payload(text, text, False, start)


def _trim_blank(lines: list[Line]) -> list[Line]:
    start, end = 0, len(lines)
    while start < end and not lines[start][1].strip():
        start += 1
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    return lines[start:end]
