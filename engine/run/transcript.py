"""The dual-section transcript parser.

A transcript is Markdown with three kinds of text (docs/threat-model.md):

- tool-call records, the system's record of what was called. A record starts at a
  heading in exactly this form, at the start of a line::

      ## [tool_calls] Step N: title

  two hashes, one space, ``[tool_calls]`` in lower case, one space, ``Step``, the
  step number (no leading zero), then optionally ``:`` and a title. Its fields
  are read by ``engine.run.tool_log``. Nothing else opens a record: ``#`` or
  ``###``, ``[TOOL_CALLS]``, ``[tool-calls]``, ``[ Tool Calls ]``, a tab after
  ``##``, a missing step number are agent text, reported as ``not-a-record``. A
  heading in the exact form always starts a record, wherever it stands (inside a
  code fence of any text, inside a value): nothing earlier in the file can hide
  a record.
- harness text: ``## [harness] <title>`` sections and ``## Eval Prompt``.
- agent text: ``## [agent_notes] ...`` blocks and every other section.

Records follow one another in a numbering scheme of ``engine.run.numbering`` (one
number per call, or one counter shared with the ``[agent_notes]`` sections). A
record that breaks the grammar, a step number out of place, a record heading inside a code
block of agent text or right after a line of it (no blank line between), a field
line left outside a record whose Return was plain or fenced text: each is an
anomaly, reported as a warning. From the record before the first anomaly to the
end of the transcript no record is trusted: such records are listed in
``Transcript.suspect_calls`` (never in ``calls``) and their text is kept as agent
text, so that a forged record can neither prove nor hide anything.

The parser never raises and is linear in the size of the text: a regex search finds
each of the only lines that can cut it (headings and code fences), going on from the
last one or from the end of the record just read (whose text is not searched), so
Python code runs per section rather than per line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from referee.engine.run.escape import unescape_text
from referee.engine.run.model import Location, Note, Problem, ToolCall, Transcript
from referee.engine.run.numbering import Numbered, first_untrusted
from referee.engine.run.tool_log import Line, Record, fence_closes, fence_open, read_record
from referee.engine.run.usual_record import plain_record

TRANSCRIPT = "outputs/transcript.md"

# The title (group 2) keeps its trailing spaces and tabs, which the parser strips: a
# lazy group, tried one character at a time, cost more than the rest of the match.
RECORD_HEADING = re.compile(r"## \[tool_calls\] Step ([1-9][0-9]{0,8})(?::[ \t]*(.*))?[ \t]*")
# A heading that looks like a record heading but is not one (checked after RECORD_HEADING).
_NEAR_RECORD = re.compile(r" {0,3}#{1,6}[ \t]*\[[ \t]*tool[ \t_-]*calls?[ \t]*\]", re.IGNORECASE)
_EXACT_START = "## [tool_calls] Step "
_HEADING = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
# The only lines that can open a section or open/close a fence: _HEADING and the fence
# both need one of these characters after at most three spaces. Searching for the
# line break first is several times faster than a multi-line "^" tried everywhere.
_MARK = re.compile(r" {0,3}[#`~]")
_NEXT_MARK = re.compile(r"\n {0,3}[#`~]")
_NOTES_TAG = re.compile(r"\[[ \t]*agent[ _-]?notes[ \t]*\][ \t]*(.*)", re.IGNORECASE | re.DOTALL)
_HARNESS_TAG = re.compile(r"\[harness\](?:[ \t]+(.*))?", re.DOTALL)
_STEP = re.compile(r"(?:step|步骤)[ \t]*([0-9]{1,9})(?![0-9])[ \t]*[:：.\-–—]?[ \t]*(.*)", re.IGNORECASE | re.DOTALL)
_FIELD_LINE = re.compile(r"^(?:Tool|Args|Return|Status):", re.MULTILINE)
_SURE: frozenset[str] = frozenset()


@dataclass
class _Section:
    kind: str  # "agent_notes" or "harness"
    line: int  # the heading line (0 for the preamble)
    step: int | None
    title: str
    tagged: bool = False
    preamble: bool = False
    body: str | None = None  # the lines after the heading, joined by "\n"; None when there are none
    first: int = 1  # the line number of the body's first line

    def lines(self) -> list[Line]:
        return [] if self.body is None else list(enumerate(self.body.split("\n"), self.first))


@dataclass
class _Record:
    line: int  # the heading line
    step: int
    title: str
    read: Record
    start: int  # offset of the record's first line after the heading
    end: int  # offset where the record ends (the next section's heading, or the zone's end)
    zone_end: int  # offset of the next record heading (or one past the text)
    anomalies: list[Problem] = field(default_factory=list)


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
    items, problems = _Segmenter(text, report).run()
    return _build(items, problems, text, file, report)


# --- pass 1: cut the text into sections and records ------------------------------------


class _Segmenter:
    """Walks the marked lines once, cutting sections and reading records."""

    def __init__(self, text: str, report: str) -> None:
        self.text = text
        self.report = report
        self.items: list[_Section | _Record] = [_Section("agent_notes", 0, None, "", preamble=True)]
        self.problems: list[Problem] = []
        self.records = _record_starts(text)
        self.skip = 0  # offsets before this belong to a record already read

    def _marked_lines(self) -> Iterator[int]:
        """The offsets of the lines ``_MARK`` matches, in order, from ``self.skip`` on.

        Each is found when the last one has been dealt with, from there or from the
        end of the record it started: the text of a record already read (most of a
        transcript) is never searched, and no text is searched twice."""
        text = self.text
        at = 0 if _MARK.match(text) else _next_marked(text, 1)
        while at >= 0:
            yield at
            at = _next_marked(text, max(at + 1, self.skip))

    def run(self) -> tuple[list[_Section | _Record], list[Problem]]:
        text = self.text
        body_at = 0  # offset where the current section's body starts
        fence: tuple[str, int, int] | None = None  # (char, length, line) of the open fence
        number, counted = 1, 0  # the line number at offset `counted`
        for start in self._marked_lines():
            end = text.find("\n", start)
            line = text[start:] if end < 0 else text[start:end]
            number += text.count("\n", counted, start)
            counted = start
            exact = RECORD_HEADING.fullmatch(line) if line.startswith("## [tool_calls] Step ") else None
            if exact is not None:
                current = self.items[-1]
                if isinstance(current, _Section):
                    _close(current, text, body_at, start)
                    record = self._record(exact, start, end, number)
                    self._check_context(record, current, fence, start)
                else:  # right after a record: nothing to close, no text around it
                    record = self._record(exact, start, end, number)
                fence = None
                self.items.append(record)
                self.skip = body_at = record.end
                # the record's lines are counted: its end starts the line after them
                number, counted = number + 1 + record.read.used, min(record.end, len(text))
                continue
            near = "[" in line and "tool" in line.lower() and _NEAR_RECORD.match(line) is not None
            if near:
                message = ("looks like a [tool_calls] record heading but is not in the exact form "
                           "'## [tool_calls] Step N: title'; read as agent text")
                self.problems.append(Problem("not-a-record", self.report, message, number))
            if fence is None:
                section = self._heading(line, number, near)
                if section is not None:
                    _close(self.items[-1], text, body_at, start)
                    self.items.append(section)
                    body_at = len(text) + 1 if end < 0 else end + 1
                    continue
                fence = fence_open(line, number)
            elif fence_closes(line, fence):
                fence = None
        _close(self.items[-1], text, body_at, len(text) + 1)
        if fence is not None:
            self.problems.append(Problem("unclosed-fence", self.report,
                                         "code fence never closed; it runs to the end", fence[2]))
        return self.items, self.problems

    def _record(self, exact: re.Match, start: int, end: int, number: int) -> _Record:
        text = self.text
        at = bisect.bisect_right(self.records, start)
        zone_end = self.records[at] if at < len(self.records) else len(text) + 1
        body_start = len(text) + 1 if end < 0 else end + 1
        body_stop = zone_end - 1  # the zone's lines, without the break before the next record
        found = plain_record(text, body_start, body_stop, number + 1, self.report) if body_start < body_stop else None
        if found is None:
            lines = text[body_start:body_stop].split("\n") if body_start < zone_end else []
            found = read_record(lines, number + 1, self.report)
            # past the record's lines and the line break after each
            record_end = body_start + (len("\n".join(lines[:found.used])) + 1 if found.used else 0)
        else:
            record_end = found.end if found.end is not None else _line_after(text, body_start, body_stop,
                                                                              found.used)
        title = (exact.group(2) or "").strip()
        record = _Record(number, int(exact.group(1)), title, found, body_start, min(record_end, zone_end), zone_end,
                         [])
        if found.loose:
            self._orphans(record)
        return record

    def _orphans(self, record: _Record) -> None:
        """Field lines between a loose record's end and the next record: the record's
        own lines, pushed out of it by text inside its plain or fenced value."""
        stop = min(record.zone_end, len(self.text))
        found = _FIELD_LINE.search(self.text, record.end, stop)
        if found is not None:
            # counted from the record's body (its first line follows the heading), not
            # from the start of the text: a transcript of loose records stays linear
            line = record.line + 1 + self.text.count("\n", record.start, found.start())
            message = (f"record field line outside its record (after step {record.step}); the record's "
                       "fields cannot be told from text printed inside its value")
            record.anomalies.append(Problem("orphan-field", self.report, message, line))

    def _check_context(self, record: _Record, current: _Section | _Record, fence, start: int) -> None:
        """A record heading inside a code block of agent text, or right after a line of it."""
        if not isinstance(current, _Section) or current.kind != "agent_notes":
            return
        if fence is not None:
            message = (f"record heading inside a code block of agent text opened at line {fence[2]}; "
                       "a record heading always starts a record, and this one is not trusted")
            record.anomalies.append(Problem("record-in-agent-text", self.report, message, record.line))
            return
        before = self.text[self.text.rfind("\n", 0, start - 1) + 1:start - 1] if start > 0 else ""
        if start > 0 and before.strip() and current.body is not None and current.first < record.line:
            message = "record heading right after a line of agent text (no blank line between); not trusted"
            record.anomalies.append(Problem("record-in-agent-text", self.report, message, record.line))

    def _heading(self, line: str, number: int, near: bool) -> _Section | None:
        if "#" not in line[:4]:  # cheap test first: most lines are not headings
            return None
        match = _HEADING.match(line)
        if match is None:
            return None if not near else _Section("agent_notes", number, None, line.strip())
        level = len(match.group(1))
        title = _strip_closing_hashes(line[match.end():].strip())
        if near:
            step, rest = _split_step(title)
            return _Section("agent_notes", number, step, rest)
        harness = _HARNESS_TAG.fullmatch(title) if level == 2 and title.startswith("[harness]") else None
        if harness is not None:
            return _Section("harness", number, None, (harness.group(1) or "").strip(), tagged=True)
        tagged = _NOTES_TAG.match(title)
        if tagged is not None:
            step, rest = _split_step(tagged.group(1).strip())
            return _Section("agent_notes", number, step, rest, tagged=True)
        current = self.items[-1]
        if level >= 3 and isinstance(current, _Section) and current.tagged:
            return None  # a sub-heading inside a tagged block is part of its body
        step, rest = _split_step(title)
        if step is None and rest.casefold() == "eval prompt":
            return _Section("harness", number, None, rest)
        return _Section("agent_notes", number, step, rest)


def _line_after(text: str, start: int, stop: int, lines: int) -> int:
    """The offset just past the first ``lines`` lines from ``start`` (``stop + 1`` when
    the text up to ``stop`` has fewer line breaks)."""
    at = start
    for _ in range(lines):
        at = text.find("\n", at, stop) + 1 or stop + 1
    return at


def _record_starts(text: str) -> list[int]:
    """The offsets of the lines that start with ``_EXACT_START``, in order. ``str.find``
    of the line break and the prefix together: a regex with a look-behind tried at
    every offset cost more than the rest of the parse."""
    found = [0] if text.startswith(_EXACT_START) else []
    needle = "\n" + _EXACT_START
    at = text.find(needle)
    while at >= 0:
        found.append(at + 1)
        at = text.find(needle, at + 1)
    return found


def _next_marked(text: str, at: int) -> int:
    """The offset of the first line from offset ``at`` on (``at`` > 0) that ``_MARK``
    matches, or -1: the line break before it is at ``at - 1`` or later."""
    found = _NEXT_MARK.search(text, at - 1)
    return -1 if found is None else found.start() + 1


def _close(item: _Section | _Record, text: str, start: int, end: int) -> None:
    """Give a section the lines from offset ``start`` up to the line starting at ``end``.

    ``end`` is one past the text for the last section, so a text ending in a line
    break keeps its final empty line, as a split into lines would.
    """
    if isinstance(item, _Section) and start < end:
        item.body = text[start:end - 1]
        item.first = item.line + 1


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


# --- pass 2: trust, then elements --------------------------------------------------------


def _distrust_from(items: list[_Section | _Record], report: str) -> tuple[int, Problem | None]:
    """The position of the first record not trusted (len(records) when all are), and why.

    A numbering that fits no scheme ends trust where ``engine.run.numbering``
    says. Any other anomaly of record p ends trust at record p - 1: text forged
    into a record's value can cut that record short and forge the next ones, and
    the record before may have been cut by it. The reason given is the first
    anomaly in the file among those that end trust soonest; only the first
    record out of place is reported as a problem (the rest follow from it).
    """
    records = [item for item in items if isinstance(item, _Record)]
    ends: list[tuple[int, int, Problem]] = []  # (first record not trusted, line, why)
    for position, record in enumerate(records):
        if record.anomalies or record.read.anomalies:
            for problem in record.anomalies + record.read.anomalies:
                ends.append((max(position - 1, 0), problem.line or 0, problem))
    broken = first_untrusted(_numbered(items), report)
    if broken is not None:
        ends.extend(broken.ends)
        records[broken.first].anomalies.append(broken.reported)
    if not ends:
        return len(records), None
    cut, _, why = min(ends, key=lambda end: end[:2])
    return cut, why


def _numbered(items: list[_Section | _Record]) -> list[Numbered]:
    """The records and the tagged, numbered ``[agent_notes]`` sections, in file order."""
    found: list[Numbered] = []
    for item in items:
        if isinstance(item, _Record):
            found.append(Numbered(True, item.step, item.line))
        elif item.tagged and item.kind == "agent_notes" and item.step is not None:
            found.append(Numbered(False, item.step, item.line))
    return found


def _build(items: list[_Section | _Record], problems: list[Problem], text: str, file: str,
           report: str) -> Transcript:
    cut, why = _distrust_from(items, report)
    reason = None if why is None else f"not trusted: {why.message} (line {why.line})"
    calls: list[ToolCall] = []
    suspect: list[ToolCall] = []
    notes: list[Note] = []
    prompt: str | None = None
    index = 0
    position = 0
    for item in items:
        if isinstance(item, _Record):
            read = item.read
            if item.anomalies or read.anomalies or read.problems:
                problems.extend(item.anomalies + read.anomalies + read.problems)
            trusted = position < cut
            position += 1
            if trusted and len(read.calls) == 1:  # the usual record: one trusted call
                calls.append(_call(item, read.calls[0], index, file, None))
                index += 1
                continue
            built = [_call(item, fields, index + (k if trusted else 0), file, None if trusted else reason)
                     for k, fields in enumerate(read.calls)]
            if trusted:
                calls.extend(built)
                index += len(built)
            else:
                suspect.extend(built)
                notes.append(_record_note(item, index, file, text))
                index += 1
            continue
        note = _note(item, index, file, prompt is None)
        if note is None:
            continue
        if note.is_eval_prompt:
            prompt = note.text
        notes.append(note)
        index += 1
    return Transcript(tuple(calls), tuple(notes), tuple(problems), prompt, tuple(suspect))


def _call(record: _Record, fields: dict, index: int, file: str, suspect: str | None) -> ToolCall:
    tool = fields.get("tool") or None
    status = fields.get("status") or None
    # a trusted call is sure of every field
    unsure = _SURE if suspect is None else _unsure(record, tool, status)
    return ToolCall(index, record.step, record.title, tool, fields.get("args"), fields.get("return"), status,
                    Location(file, record.line), fields.get("status_line"), fields.get("tool_line"), suspect,
                    unsure)


def _unsure(record: _Record, tool: str | None, status: str | None) -> frozenset[str]:
    """The fields an untrusted record cannot give for certain."""
    unsure: set[str] = set()
    if record.read.broken:
        unsure.add("status")
    if record.read.loose & {"args", "return"}:
        unsure |= {"return", "status"} | ({"args"} if "args" in record.read.loose else set())
    if tool is None:
        unsure.add("tool")
    if status is None:
        unsure.add("status")
    return frozenset(unsure) if unsure else _SURE


def _record_note(record: _Record, index: int, file: str, source: str) -> Note:
    """A record that is not trusted, kept as what it now is: agent text."""
    written = source[record.start:max(record.start, record.end - 1)]
    text = written.strip()
    first = next((record.line + 1 + k for k, line in enumerate(written.split("\n")) if line.strip()), None)
    return Note(index, record.step, record.title, text, "agent_notes", Location(file, record.line),
                tagged=False, text_line=first)


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


def _note(section: _Section, index: int, file: str, first_prompt: bool) -> Note | None:
    """A text section as a note; lines escaped by the convention read as written."""
    body = section.body or ""
    if "<!--" in body:
        lines = _drop_comments(section.lines())
        body = "\n".join(line for _, line in lines)
        text_line = next((number for number, line in lines if line.strip()), None)
    else:  # the same, without a split into lines
        lead = len(body) - len(body.lstrip())
        text_line = section.first + body.count("\n", 0, lead) if lead < len(body) else None
    text = (unescape_text(body) if "\\" in body else body).strip()
    line: int | None = section.line
    if section.preamble:
        if not text:
            return None
        line = text_line
    prompt = first_prompt and section.kind == "harness" and not section.tagged
    return Note(index, section.step, section.title, text, section.kind, Location(file, line),
                tagged=section.tagged, text_line=text_line, is_eval_prompt=prompt)
