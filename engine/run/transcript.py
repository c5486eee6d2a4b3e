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
Python code runs per section rather than per line. That first pass is
``engine.run.transcript_sections``; this module decides trust and builds the elements.
"""

from __future__ import annotations

import re
import unicodedata

from referee.engine.run.escape import unescape_text
from referee.engine.run.model import Location, Note, Problem, ToolCall, Transcript
from referee.engine.run.numbering import Numbered, first_untrusted
from referee.engine.run.tool_log import Line
from referee.engine.run.transcript_sections import CallRecord, Section, segment

TRANSCRIPT = "outputs/transcript.md"
_SURE: frozenset[str] = frozenset()
_STATUS_LINE = re.compile(r"^Status:", re.MULTILINE)


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
    items, problems = segment(text, report)
    return _build(items, problems, text, file, report)


# --- pass 2: trust, then elements --------------------------------------------------------


def _distrust_from(items: list[Section | CallRecord], report: str) -> tuple[int, Problem | None]:
    """The position of the first record not trusted (len(records) when all are), and why.

    A numbering that fits no scheme ends trust where ``engine.run.numbering``
    says. Any other anomaly of record p ends trust at record p - 1: text forged
    into a record's value can cut that record short and forge the next ones, and
    the record before may have been cut by it. The reason given is the first
    anomaly in the file among those that end trust soonest; only the first
    record out of place is reported as a problem (the rest follow from it).
    """
    records = [item for item in items if isinstance(item, CallRecord)]
    ends: list[tuple[int, int, Problem]] = []  # (first record not trusted, line, why)
    for position, record in enumerate(records):
        if record.anomalies or record.read.anomalies:
            for problem in record.anomalies + record.read.anomalies:
                ends.append((max(position - 1, 0), problem.line or 0, problem))
    # records numbered 1, 2, 3, ... fit a scheme whatever the notes say: no need to list
    # the notes' numbers (first_untrusted, the reference, finds the same: None)
    broken = None if _one_per_call(records) else first_untrusted(_numbered(items), report)
    if broken is not None:
        ends.extend(broken.ends)
        records[broken.first].anomalies.append(broken.reported)
    if not ends:
        return len(records), None
    cut, _, why = min(ends, key=lambda end: end[:2])
    return cut, why


def _one_per_call(records: list[CallRecord]) -> bool:
    """Whether the n-th record is ``Step n`` for every n."""
    return all(record.step == position for position, record in enumerate(records, 1))


def _numbered(items: list[Section | CallRecord]) -> list[Numbered]:
    """The records and the tagged, numbered ``[agent_notes]`` sections, in file order."""
    found: list[Numbered] = []
    for item in items:
        if isinstance(item, CallRecord):
            found.append(Numbered(True, item.step, item.line))
        elif item.tagged and item.kind == "agent_notes" and item.step is not None:
            found.append(Numbered(False, item.step, item.line))
    return found


def _build(items: list[Section | CallRecord], problems: list[Problem], text: str, file: str,
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
        if isinstance(item, CallRecord):
            read = item.read
            if item.anomalies or read.anomalies or read.problems:
                problems.extend(item.anomalies + read.anomalies + read.problems)
            trusted = position < cut
            position += 1
            if trusted and len(read.calls) == 1:  # the usual record: one trusted call
                calls.append(_call(item, read.calls[0], index, (file, report), None, problems))
                index += 1
                continue
            built = [_call(item, fields, index + (k if trusted else 0), (file, report), None if trusted else reason,
                           problems) for k, fields in enumerate(read.calls)]
            if trusted:
                calls.extend(built)
                index += len(built)
            else:
                suspect.extend(built)
                notes.append(_record_note(item, index, file, text))
                index += 1
            continue
        note = section_note(item, index, file, prompt is None)
        if note is None:
            continue
        if note.is_eval_prompt:
            prompt = note.text
        notes.append(note)
        index += 1
    return Transcript(tuple(calls), tuple(notes), tuple(problems), prompt, tuple(suspect))


def _call(record: CallRecord, fields: dict, index: int, where: tuple[str, str], suspect: str | None,
          problems: list[Problem]) -> ToolCall:
    """The call a record gives; ``where`` is the transcript's file and its path in problems."""
    file, report = where
    tool = fields.get("tool") or None
    status = fields.get("status") or None
    # a trusted call is sure of every field, but of a status it does not give when a
    # value holds a Status line: a fence left open may have taken the record's own
    unsure = _SURE if suspect is None else _unsure(record, tool, status)
    if suspect is None and status is None and _holds_status(fields):
        unsure = frozenset({"status"})
        message = ("the record gives no Status line, but its Args or Return holds one: a fence left open may "
                   "have taken the record's own, so its status is unknown")
        problems.append(Problem("status-unknown", report, message, record.line))
    if suspect is None and tool is not None and _unseen_in(tool):
        unsure |= {"tool"}
        message = (f"the tool name {ascii(tool)} holds a character a reader cannot see (a zero-width or format "
                   "character, a control character, a line separator): it reads as another name than it "
                   "compares as, so which tool was called is unknown")
        problems.append(Problem("tool-unseen", report, message, fields.get("tool_line") or record.line))
    return ToolCall(index, record.step, record.title, tool, fields.get("args"), fields.get("return"), status,
                    Location(file, record.line), fields.get("status_line"), fields.get("tool_line"), suspect,
                    unsure)


def _unseen_in(name: str) -> bool:
    """Whether a tool name holds a character that shows as nothing (Unicode's format
    and control characters: a zero-width space, a byte order mark an editor left while
    joining files, a bidi control) or as a line break (U+2028, U+2029, which some
    editors end a line at): "Bash" followed by U+200B is read as "Bash" on screen but
    is not "Bash" to a check, so 'no calls to "Bash"' passed on it."""
    return not name.isprintable() and any(unicodedata.category(ch) in _UNSEEN for ch in name)


_UNSEEN = ("Cf", "Cc", "Zl", "Zp")


def _holds_status(fields: dict) -> bool:
    """Whether the record's Args or Return holds a line that reads as a Status field."""
    return any(payload is not None and not payload.is_json and _STATUS_LINE.search(payload.text)
               for payload in (fields.get("args"), fields.get("return")))


def _unsure(record: CallRecord, tool: str | None, status: str | None) -> frozenset[str]:
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


def _record_note(record: CallRecord, index: int, file: str, source: str) -> Note:
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


def section_note(section: Section, index: int, file: str, first_prompt: bool) -> Note | None:
    """A text section as a note; lines escaped by the convention read as written.
    None for a preamble with no text."""
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
