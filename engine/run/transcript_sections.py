"""Pass 1 of the transcript parser (``engine.run.transcript``): the text cut into
sections and records.

A regex search finds each of the only lines that can cut the text (headings and
code fences), going on from the last one or from the end of the record just read,
whose text is not searched again; each record's fields are read as it is met
(``engine.run.usual_record`` for the usual shape, else ``engine.run.tool_log``).
What the sections and records become, and which records are trusted, is pass 2's.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from referee.engine.run.model import Problem
from referee.engine.run.near_headings import (TOOL_HEADING, hidden_headings, hidden_headings_by_lines,  # noqa: F401
                                              names_tool_calls, wide_headings, written_as_heading)
from referee.engine.run.tool_log import Line, Record, fence_closes, fence_open, read_record
from referee.engine.run.usual_record import plain_record

# The title (group 2) keeps its trailing spaces and tabs, which the parser strips: a
# lazy group, tried one character at a time, cost more than the rest of the match.
RECORD_HEADING = re.compile(r"## \[tool_calls\] Step ([1-9][0-9]{0,8})(?::[ \t]*(.*))?[ \t]*")
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


@dataclass
class Section:
    """A text section: its heading's kind, line, step and title, and its body."""

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
class CallRecord:
    """A ``[tool_calls]`` record: its heading, its fields as read, where it lies in the
    text, and the anomalies that make it, and every record after it, untrusted."""

    line: int  # the heading line
    step: int
    title: str
    read: Record
    start: int  # offset of the record's first line after the heading
    end: int  # offset where the record ends (the next section's heading, or the zone's end)
    zone_end: int  # offset of the next record heading (or one past the text)
    anomalies: list[Problem] = field(default_factory=list)


def segment(text: str, report: str) -> tuple[list[Section | CallRecord], list[Problem]]:
    """The sections and records of ``text`` (line ends already ``\\n``), in order
    (the first is the preamble before any heading), and the problems met."""
    return Segmenter(text, report).run()


class Segmenter:
    """Walks the marked lines once, cutting sections and reading records."""

    def __init__(self, text: str, report: str) -> None:
        self.text = text
        self.report = report
        self.items: list[Section | CallRecord] = [Section("agent_notes", 0, None, "", preamble=True)]
        self.problems: list[Problem] = []
        self.records = record_starts(text)
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

    def run(self) -> tuple[list[Section | CallRecord], list[Problem]]:
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
                if isinstance(current, Section):
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
            near = names_tool_calls(line) and written_as_heading(line)
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
        self._hidden_headings()
        if fence is not None:
            self.problems.append(Problem("unclosed-fence", self.report,
                                         "code fence never closed; it runs to the end", fence[2]))
        return self.items, self.problems

    def _hidden_headings(self) -> None:
        self.problems.extend(hidden_headings(self.text, self.report))
        self.problems.extend(wide_headings(self.text, self.report))

    def _record(self, exact: re.Match, start: int, end: int, number: int) -> CallRecord:
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
        record = CallRecord(number, int(exact.group(1)), title, found, body_start, min(record_end, zone_end), zone_end,
                         [])
        if found.loose:
            self._orphans(record)
        return record

    def _orphans(self, record: CallRecord) -> None:
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

    def _check_context(self, record: CallRecord, current: Section | CallRecord,
                       fence: tuple[str, int, int] | None, start: int) -> None:
        """A record heading inside a code block of agent text, or right after a line of it."""
        if not isinstance(current, Section) or current.kind != "agent_notes":
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

    def _heading(self, line: str, number: int, near: bool) -> Section | None:
        if "#" not in line[:4]:  # cheap test first: most lines are not headings
            return None
        match = _HEADING.match(line)
        if match is None:
            return None if not near else Section("agent_notes", number, None, line.strip())
        level = len(match.group(1))
        title = _strip_closing_hashes(line[match.end():].strip())
        if near:
            step, rest = _split_step(title)
            return Section("agent_notes", number, step, rest)
        harness = _HARNESS_TAG.fullmatch(title) if level == 2 and title.startswith("[harness]") else None
        if harness is not None:
            return Section("harness", number, None, (harness.group(1) or "").strip(), tagged=True)
        tagged = _NOTES_TAG.match(title)
        if tagged is not None:
            step, rest = _split_step(tagged.group(1).strip())
            return Section("agent_notes", number, step, rest, tagged=True)
        current = self.items[-1]
        if level >= 3 and isinstance(current, Section) and current.tagged:
            return None  # a sub-heading inside a tagged block is part of its body
        step, rest = _split_step(title)
        if step is None and rest.casefold() == "eval prompt":
            return Section("harness", number, None, rest)
        return Section("agent_notes", number, step, rest)


def may_hold_near_record(text: str) -> bool:
    """Whether ``text`` (LF line ends) holds a line ``written_as_heading`` that is not a
    record heading in the exact form, told without parsing. Only the lines that start,
    after at most three spaces, with ``#`` can be one; each is found by a search for
    its line break and its lead (a regex anchored at every line start costs far more
    over a whole transcript). False is sure; True asks the parse, which alone knows
    which of them lie inside a record's value."""
    for lead in ("#", " #", "  #", "   #"):
        at = 0 if text.startswith(lead) else text.find("\n" + lead) + 1 or -1
        while at >= 0:
            end = text.find("\n", at)
            line = text[at:] if end < 0 else text[at:end]
            if written_as_heading(line) and RECORD_HEADING.fullmatch(line) is None:
                return True
            at = -1 if end < 0 else text.find("\n" + lead, end) + 1 or -1
    return False


def _line_after(text: str, start: int, stop: int, lines: int) -> int:
    """The offset just past the first ``lines`` lines from ``start`` (``stop + 1`` when
    the text up to ``stop`` has fewer line breaks)."""
    at = start
    for _ in range(lines):
        at = text.find("\n", at, stop) + 1 or stop + 1
    return at


def record_starts(text: str) -> list[int]:
    """The offsets of the lines that start with ``_EXACT_START``, in order."""
    return list(iter_record_starts(text))


def iter_record_starts(text: str) -> Iterator[int]:
    """``record_starts``, one at a time: a caller after the first few does not scan the
    rest. ``str.find`` of the line break and the prefix together: a regex with a
    look-behind tried at every offset cost more than the rest of the parse."""
    if text.startswith(_EXACT_START):
        yield 0
    needle = "\n" + _EXACT_START
    at = text.find(needle)
    while at >= 0:
        yield at + 1
        at = text.find(needle, at + 1)


def last_record_start(text: str) -> int | None:
    """The last of ``record_starts``, found from the text's end; None when there is none."""
    at = text.rfind("\n" + _EXACT_START)
    if at >= 0:
        return at + 1
    return 0 if text.startswith(_EXACT_START) else None


def exact_headings(text: str) -> int:
    """How many lines of ``text`` are record headings in the exact form, wherever they
    stand: each opens a record, trusted or not (docs/threat-model.md), so the parse
    finds as many records or more (a record holding a second ``Tool:`` line is two).
    Lines end as ``parse_transcript`` ends them (``\r\n`` and a lone ``\r`` too)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    found = 0
    for start in record_starts(text):
        end = text.find("\n", start)
        found += RECORD_HEADING.fullmatch(text, start, len(text) if end < 0 else end) is not None
    return found


def _next_marked(text: str, at: int) -> int:
    """The offset of the first line from offset ``at`` on (``at`` > 0) that ``_MARK``
    matches, or -1: the line break before it is at ``at - 1`` or later."""
    found = _NEXT_MARK.search(text, at - 1)
    return -1 if found is None else found.start() + 1


def _close(item: Section | CallRecord, text: str, start: int, end: int) -> None:
    """Give a section the lines from offset ``start`` up to the line starting at ``end``.

    ``end`` is one past the text for the last section, so a text ending in a line
    break keeps its final empty line, as a split into lines would.
    """
    if isinstance(item, Section) and start < end:
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
