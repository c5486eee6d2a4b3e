"""Reading one ``## [tool_calls]`` record: its fields, by the strict record grammar.

A record's body is, in this order (docs/threat-model.md)::

    [blank lines and <!-- comments -->]
    Tool: <name>
    Args: <value>        (optional)
    Return: <value>      (optional)
    Status: <word>       (optional)

Each label starts its line, spelt exactly so (``tool:`` or `` Tool:`` is text). A
value's extent is decided by its own structure, never by what its text looks
like: JSON ends where the JSON value ends (on its line, or spread over lines); a
fenced value (an empty field line, then a fence) ends at its own closing fence;
plain text Args end at the next ``Return:`` or ``Status:`` line; a plain text
Return ends at the first ``Status:`` line that is followed only by blank lines
and then a heading, a ``Tool:`` line or the end of the record's zone, so lines a
tool printed (``Status: success`` inside its output) stay in the Return. Between
fields, a heading ends the record. Everything else is an anomaly: a field given
twice, out of order or missing, text where a field belongs, a second ``Tool:``
(a second call in one record), a fence that never closes. Anomalies are
reported; the parser (``engine.run.transcript``) decides what they cost.

The reader works on the record's *zone*: its lines up to the next exact record
heading, which always starts a record (nothing inside a zone can hide one).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from referee.engine.run.model import Payload, Problem
from referee.engine.run.safejson import json_prefix, json_value, parse_json

Line = tuple[int, str]  # (1-based line number, text without its line end)

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_FIELD = re.compile(r"(Tool|Args|Return|Status):(.*)", re.DOTALL)
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
# A field line or a heading (``_FIELD``, ``_HEADING``) after a line break.
MARK = re.compile(r"\n(?:(?:Tool|Args|Return|Status):| {0,3}#{1,6}(?=[ \t\n]|\Z))")
_ORDER = {"tool": 0, "args": 1, "return": 2, "status": 3}
_REQUIRED = ("tool",)  # a record is a call of a tool; a call may have no args, result or status yet
JSON_START = ("{", "[")


def fence_open(line: str, number: int) -> tuple[str, int, int] | None:
    """The fence a line opens (char, length, line), or None."""
    if "`" not in line[:4] and "~" not in line[:4]:
        return None
    match = _FENCE.match(line)
    if match is None:
        return None
    marks = match.group(1)
    if marks[0] == "`" and "`" in line[match.end():]:
        return None  # CommonMark: a backtick fence's info string has no backticks
    return marks[0], len(marks), number


def fence_closes(line: str, fence: tuple[str, int, int]) -> bool:
    match = _FENCE.match(line)
    if match is None:
        return False
    marks = match.group(1)
    return marks[0] == fence[0] and len(marks) >= fence[1] and not line[match.end():].strip()


def is_heading(line: str) -> bool:
    return "#" in line[:4] and _HEADING.match(line) is not None


@dataclass
class Record:
    """What the reader found in one record zone.

    ``calls`` holds the fields of each call (a well-formed record has one);
    ``used`` is how many of the zone's lines belong to the record (the rest start
    the next section); ``anomalies`` break the grammar, ``problems`` do not (a
    value that is not JSON). ``loose`` names the payloads (``args``, ``return``)
    whose end was not fixed by JSON structure (plain text, or a fence that text
    inside it could close early), and ``status`` when the record ended before a
    Status line: then a field line found after the record is reported.
    """

    calls: list[dict] = field(default_factory=list)
    used: int = 0
    anomalies: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    loose: set[str] = field(default_factory=set)
    end: int | None = None  # offset just past the record's last line, when ``plain_record`` read it

    @property
    def broken(self) -> bool:
        return bool(self.anomalies)


class RecordReader:
    """Reads the fields of one record from the lines of its zone.

    A value's end is the next field line or heading (or a ``Status:`` line among
    them): those lines are found once, by one search of the zone's text
    (``_marks``), so that a value of many lines is not read line by line."""

    def __init__(self, lines: list[str], first: int, report: str) -> None:
        self.lines = lines
        self.first = first  # the line number of lines[0]
        self.report = report
        self.record = Record()
        self._labels: dict[int, re.Match | None] = {}
        self._marked: list[int] | None = None

    def label(self, i: int) -> re.Match | None:
        if i not in self._labels:
            self._labels[i] = _FIELD.match(self.lines[i])
        return self._labels[i]

    def _marks(self) -> list[int]:
        """The lines that are a field line (``label``) or a heading (``is_heading``), in order."""
        if self._marked is None:
            text = "\n" + "\n".join(self.lines)  # a line break before each line, the first too
            found, line, counted = [], 0, 0
            for match in MARK.finditer(text):
                line += text.count("\n", counted, match.start())
                counted = match.start()
                found.append(line)
            self._marked = found
        return self._marked

    def _marks_after(self, i: int) -> list[int]:
        """The marked lines after line ``i``."""
        marks = self._marks()
        return marks[bisect.bisect_right(marks, i):]

    def number(self, i: int) -> int:
        return self.first + i

    def anomaly(self, code: str, message: str, i: int) -> None:
        self.record.anomalies.append(Problem(code, self.report, message, self.number(min(i, len(self.lines) - 1))))

    def read(self) -> Record:
        n = len(self.lines)
        i = self._preamble()
        call: dict | None = None
        stray = False  # inside a run of text where a field belongs (reported once per run)
        while i < n:
            line = self.lines[i]
            if not line.strip():
                i += 1
                continue
            match = self.label(i)
            if match is None:
                if is_heading(line):
                    break  # between fields a heading ends the record
                if not stray:
                    self.anomaly("stray-text", "text where a record field belongs", i)
                stray = True
                i += 1
                continue
            stray = False
            key = match.group(1).lower()
            if key == "tool" or call is None:
                if call is not None:
                    self.anomaly("two-calls", "a second Tool: line in one record: a second call", i)
                elif key != "tool":
                    self.anomaly("field-order", f"{key.capitalize()}: comes before Tool:", i)
                call = {"_seen": -1}
                self.record.calls.append(call)
            i = self._field(call, key, match.group(2), i)
        self.record.used = i
        if self.record.calls and not self.record.calls[-1].get("status"):
            self.record.loose.add("status")  # ended before a Status line: it may stand after the end
        for one in self.record.calls:
            missing = [k.capitalize() + ":" for k in _REQUIRED if not one.get(k)]
            if missing:
                where: int = one.get("tool_line") or self.first - 1
                message = f"record has no {' and no '.join(missing)} line"
                self.record.anomalies.append(Problem("missing-field", self.report, message, where))
            one.pop("_seen", None)
        if not self.record.calls:
            self.record.calls.append({})
            self.record.anomalies.append(Problem("missing-field", self.report, "record has no fields", self.first - 1))
        return self.record

    def _preamble(self) -> int:
        """Skip blank lines and HTML comments before the first field."""
        i, n = 0, len(self.lines)
        while i < n:
            stripped = self.lines[i].strip()
            if not stripped:
                i += 1
                continue
            if not stripped.startswith("<!--"):
                return i
            j, rest = i, stripped[4:]
            while "-->" not in rest:
                j += 1
                if j >= n or self.label(j) is not None:
                    self.anomaly("stray-text", "comment never closed before the record's fields", i)
                    return j
                rest = self.lines[j]
            i = j + 1
        return i

    def _field(self, call: dict, key: str, rest: str, i: int) -> int:
        order = _ORDER[key]
        if key in call:
            self.anomaly("repeated-field", f"{key.capitalize()}: given twice in one call", i)
        elif order < call["_seen"]:
            self.anomaly("field-order", f"{key.capitalize()}: out of order (Tool, Args, Return, Status)", i)
        call["_seen"] = max(call["_seen"], order)
        if key in ("tool", "status"):
            if key not in call:
                call[key] = rest.strip()
                call[f"{key}_line"] = self.number(i)
            return i + 1
        value, after, loose = self._payload(key, rest, i)
        call.setdefault(key, value)
        if loose:
            self.record.loose.add(key)
        return after

    # --- payloads ---------------------------------------------------------------------

    def _payload(self, key: str, rest: str, i: int) -> tuple[Payload, int, bool]:
        """The value of field line ``i`` (on that line, in a fence below it, or on the
        next lines), the line after it, and whether its end is loose."""
        first = rest.strip()
        if first:
            value, after = self._value(key, first, i)
            return value, after, not value.is_json or after > i + 1 and not first.startswith(JSON_START)
        j = self._filled(i + 1)
        if self._value_ends(j):
            self.record.problems.append(Problem("not-json", self.report, f"{key.capitalize()}: has no value",
                                                self.number(i)))
            return Payload("", "", False, self.number(i)), i + 1, True  # what follows may be its text
        fence = fence_open(self.lines[j], self.number(j))
        if fence is None:
            value, after = self._value(key, self.lines[j].strip(), j)
            return value, after, not value.is_json
        value, after = self._fenced(key, j, fence)
        return value, after, True

    def _fenced(self, key: str, j: int, fence: tuple[str, int, int]) -> tuple[Payload, int]:
        k = j + 1
        while k < len(self.lines) and not fence_closes(self.lines[k], fence):
            k += 1
        if k >= len(self.lines):
            self.anomaly("unclosed-fence", f"{key.capitalize()}: code fence never closed in its record", j)
            after = k
        else:
            after = k + 1
        body = _trim_blank([(self.number(x), self.lines[x]) for x in range(j + 1, min(k, len(self.lines)))])
        if not body:
            return Payload("", "", False, self.number(j)), after
        return self._parsed(key, body), after

    def _value(self, key: str, first: str, i: int) -> tuple[Payload, int]:
        """A value whose first line is line ``i``, holding ``first`` (stripped, not empty).

        JSON is the value when it ends where the value must end (only blank lines
        before the next field, heading or the zone's end); JSON followed by more
        text is the first line of a plain text value (a tool printing a JSON line
        and then a log)."""
        number = self.number(i)
        parsed = json_value(first) if self._value_ends(i + 1) else None
        if parsed is not None:
            return Payload(first, parsed[0], True, number), i + 1
        if first.startswith(JSON_START):
            spread = self._spread_json(first, i)
            if spread is not None and self._value_ends(spread[1]):
                return spread
        end = self._plain_end(key, i)
        lines = _trim_blank([(number, first)] + [(self.number(x), self.lines[x]) for x in range(i + 1, end)])
        return self._parsed(key, lines), end

    def _spread_json(self, first: str, i: int) -> tuple[Payload, int] | None:
        """Valid JSON opening with a bracket on line ``i`` and spread over the next lines.

        No JSON line is a field line or a heading, so the value must end before the
        next one; it must also end its line.
        """
        stop = next(iter(self._marks_after(i)), len(self.lines))
        text = "\n".join([first] + self.lines[i + 1:stop])
        found = json_prefix(text)
        if found is None:
            return None
        value, end = found
        line_end = text.find("\n", end)
        if text[end:line_end if line_end >= 0 else len(text)].strip():
            return None  # more after the value on its last line: not JSON as a whole
        return Payload(text[:end], value, True, self.number(i)), i + 1 + text.count("\n", 0, end)

    def _plain_end(self, key: str, i: int) -> int:
        """Where a plain text value starting on line ``i`` ends (the next line not in it)."""
        for j in self._marks_after(i):
            match = self.label(j)
            if match is None:
                continue  # a heading
            if key == "args" and match.group(1) in ("Return", "Status"):
                return j
            if key != "args" and match.group(1) == "Status" and self._ends_record(j + 1):
                return j
        return len(self.lines)

    def _filled(self, j: int) -> int:
        """The first line from ``j`` on that is not blank (the zone's length if none)."""
        while j < len(self.lines) and not self.lines[j].strip():
            j += 1
        return j

    def _value_ends(self, j: int) -> bool:
        """True when line ``j`` on is blank up to a field line, a heading or the zone's end."""
        j = self._filled(j)
        return j >= len(self.lines) or self.label(j) is not None or is_heading(self.lines[j])

    def _ends_record(self, j: int) -> bool:
        """True when line ``j`` on is blank up to the zone's end, a heading or a Tool: line."""
        j = self._filled(j)
        if j >= len(self.lines):
            return True
        match = self.label(j)
        return is_heading(self.lines[j]) or (match is not None and match.group(1) == "Tool")

    def _parsed(self, key: str, lines: list[Line]) -> Payload:
        start = lines[0][0]
        text = "\n".join(line for _, line in lines).strip()
        payload, problem = read_value(key, text, start, self.report)
        if problem is not None:
            self.record.problems.append(problem)
        return payload


def read_value(key: str, text: str, start: int, report: str) -> tuple[Payload, Problem | None]:
    """A value of lines ``text`` (stripped; its first on line ``start``): JSON, or
    text kept as it is with the problem saying why it is not JSON."""
    result = parse_json(text, report, first_line=start, code="not-json")
    if result.ok:
        return Payload(text, result.value, True, start), None
    assert result.problem is not None  # a failure always says why
    return kept_as_text(key, text, start, result.problem)


def kept_as_text(key: str, text: str, start: int, why: Problem) -> tuple[Payload, Problem]:
    """``read_value`` of ``text``, which is not JSON for the reason ``why`` (``parse_json``'s
    problem, or ``safejson.not_json``'s for a text already decoded)."""
    message = f"{key.capitalize()}: value kept as text: {why.message}"
    return Payload(text, text, False, start), Problem(why.code, why.path, message, start)


def read_record(lines: list[str], first: int, report: str) -> Record:
    """The record whose zone is ``lines`` (``lines[0]`` is line ``first``)."""
    return RecordReader(lines, first, report).read()


def _trim_blank(lines: list[Line]) -> list[Line]:
    start, end = 0, len(lines)
    while start < end and not lines[start][1].strip():
        start += 1
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    return lines[start:end]
