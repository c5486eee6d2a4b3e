"""Reading the fields of one ``## [tool_calls]`` block into a call's parts.

Two readers that agree: ``plain_call`` takes the shape nearly every tool log has
in one regex match; ``CallReader`` reads any block line by line and knows where a
value that is not JSON as a whole ends. tests/test_transcript_fast.py checks that
both give the same result wherever the fast one applies.
"""

from __future__ import annotations

import re

from referee.engine.run.model import Payload, Problem
from referee.engine.run.safeio import bracket_balance, json_prefix, json_value, parse_json

Line = tuple[int, str]  # (1-based line number, text without its line end)

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")

_FIELD = re.compile(r"(tool|args|return|status)[ \t]*:(.*)", re.IGNORECASE | re.DOTALL)
_JSON_START = ("{", "[")
# The shape nearly every tool log has: maybe a one-line comment, then Tool, Args,
# Return and Status lines, then blank lines. Args and Return may go on over lines
# that start with a space or a closing bracket (indented JSON). Linear: every part
# stops at the next line break, so a failed match backtracks within one line only.
_PLAIN_CALL = re.compile(
    r"(?P<note>[ \t]*<!--(?:(?!-->)[^\n])*-->[ \t]*\n)?"
    r"Tool:(?P<tool>[^\n]*)\n"
    r"Args:(?P<args>[^\n]*(?:\n[ \t\]}][^\n]*)*)\n"
    r"Return:(?P<return>[^\n]*(?:\n[ \t\]}][^\n]*)*)\n"
    r"Status:(?P<status>[^\n]*)"
    r"(?:\n[ \t]*)*"
)


def fence_open(line: str, number: int) -> tuple[str, int, int] | None:
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


# --- pass 2: read each section ----------------------------------------------------------


def plain_call(body: str | None, first: int) -> dict | None:
    """The fields of a block in the plain shape (``_PLAIN_CALL``), or None.

    What ``_CallReader`` reads from such a block, read by one regex: one call
    whose payloads are each valid JSON as a whole (the reader takes such a value
    as it stands, whether on one line or spread). None sends the block to the
    reader; tests/test_transcript_fast.py checks both agree.
    """
    match = None if body is None else _PLAIN_CALL.fullmatch(body)
    if match is None:
        return None
    line = first + (1 if match["note"] else 0)
    fields: dict = {"tool": match["tool"].strip(), "tool_line": line}
    for key in ("args", "return"):
        line += 1
        raw = match[key]
        parsed = json_value(raw.strip())
        if parsed is None:
            return None  # not JSON as a whole: the reader knows where such a value ends
        fields[key] = Payload(raw.strip(), parsed[0], True, line)
        line += raw.count("\n")
    fields.update(status=match["status"].strip(), status_line=line + 1)
    return fields


class CallReader:
    """Reads the ``Tool:``/``Args:``/``Return:``/``Status:`` fields of one block.

    Each ``Tool:`` line starts a call; the fields after it belong to that call, so
    a Return pairs with the call it follows. Fields before any ``Tool:`` line form
    a call without a tool name. A repeated field keeps its first value.
    """

    def __init__(self, body: list[Line], report: str) -> None:
        self.body = body
        self.fields = [_FIELD.match(line) for _, line in body]  # each line is tested once
        self.report = report
        self.problems: list[Problem] = []

    def read(self) -> list[dict]:
        calls: list[dict] = []
        after = 0  # lines before this belong to a value already read
        for i, match in enumerate(self.fields):
            if match is None or i < after:
                continue
            key, rest = match.group(1).lower(), match.group(2)
            if key == "tool" or not calls:
                calls.append({})
            after = self._field(calls[-1], key, rest, i)
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
        """The value of field line ``i``: on that line, in a fence below it, or on the next lines."""
        first = rest.strip()
        if first:
            return self._value(key, first, i)
        j = i + 1
        while j < len(self.body) and not self.body[j][1].strip():
            j += 1
        if j < len(self.body) and self.fields[j] is None:
            fence = fence_open(self.body[j][1], self.body[j][0])
            if fence is None:
                return self._value(key, self.body[j][1].strip(), j)
            lines, after = self._fenced(j + 1, fence)
            if lines:
                return self._parsed(key, lines), after
        else:
            after = i + 1
        problem = Problem("not-json", self.report, f"{key.capitalize()}: has no value", self.body[i][0])
        self.problems.append(problem)
        return Payload("", "", False, self.body[i][0]), after

    def _fenced(self, i: int, fence: tuple[str, int, int]) -> tuple[list[Line], int]:
        lines: list[Line] = []
        while i < len(self.body) and not fence_closes(self.body[i][1], fence):
            lines.append(self.body[i])
            i += 1
        return _trim_blank(lines), i + 1

    def _value(self, key: str, first: str, i: int) -> tuple[Payload, int]:
        """A value whose first line is line ``i``, holding ``first`` (stripped, not empty).

        JSON on that line alone is the value. Else a value opening with a bracket
        continues until its brackets balance (JSON strings cannot hold raw line
        breaks, so balance is counted line by line); other text continues until the
        next field line.
        """
        number = self.body[i][0]
        parsed = json_value(first)
        if parsed is not None:
            return Payload(first, parsed[0], True, number), i + 1
        if not first.startswith(_JSON_START):
            balance = None
        else:
            spread = self._spread_json(first, i)
            if spread is not None:
                return spread
            balance = bracket_balance(first)
        lines, i = [(number, first)], i + 1
        while i < len(self.body) and self.fields[i] is None:
            if balance is not None and balance <= 0:
                break
            lines.append(self.body[i])
            if balance is not None:
                balance += bracket_balance(self.body[i][1])
            i += 1
        return self._parsed(key, _trim_blank(lines)), i

    def _spread_json(self, first: str, i: int) -> tuple[Payload, int] | None:
        """Valid JSON opening with a bracket on line ``i`` and spread over the next lines.

        Decoded in one go up to the next field line, where a JSON value must have
        ended (no JSON line looks like a field line). It gives what the balance
        count gives whenever the value is valid JSON that ends a line: its brackets
        stay open until that line. None for anything else, left to the count.
        """
        stop = i + 1
        while stop < len(self.body) and self.fields[stop] is None:
            stop += 1
        text = "\n".join([first] + [line for _, line in self.body[i + 1:stop]])
        found = json_prefix(text)
        if found is None:
            return None
        value, end = found
        line_end = text.find("\n", end)
        if text[end:line_end if line_end >= 0 else len(text)].strip():
            return None  # more after the value on its last line: not JSON as a whole
        return Payload(text[:end], value, True, self.body[i][0]), i + 1 + text.count("\n", 0, end)

    def _parsed(self, key: str, lines: list[Line]) -> Payload:
        start = lines[0][0]
        text = "\n".join(line for _, line in lines).strip()
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
