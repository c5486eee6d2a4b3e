"""Calls a run's ``outputs/metrics.json`` counts that its transcript does not hold.

A run not imported is graded from its transcript alone: a ``[tool_calls]`` record is
the only proof of a call, and the absence of one is read as no call. When the run's
own ``metrics.json`` counts more calls than the transcript holds (a transcript cut
short while it was written, or kept in part), the calls it lacks are calls of the run
nobody can check, so a check that none was made cannot pass on it
(``metrics-without-calls``: ``engine.run.agents`` makes the run's calls unknown).
The agent may have written ``metrics.json``, but a count it inflates only turns
checks into errors, never into passes.

A transcript that ends inside a record (``cut_in_record``: its last record has no
``Status:`` line, which closes every record, and nothing follows it) was cut while it
was written, whatever ``metrics.json`` says: the calls after the cut are lost as well.
So is one whose first numbered section is above step 1 (``head_missing``): both
numbering schemes of ``engine.run.numbering`` count from 1, so the sections the
harness numbered before it are not there, and they may have been records.

A line that looks like a record heading but is not in the exact form (``### [tool_calls]
Step 3: Bash``, ``## [tool calls] Step 3: Bash``, a no-break space, full-width brackets:
the parse's ``not-a-record``) is read as agent text, but the lines under it may be a call
written in a form the parse does not read (``near_record``): the calls are not known
in full either, where the line starts with ``#`` as a heading does (the escaping
convention leaves no line of agent text so). Only the run's own transcript is so read: an import wrote its view from
a log whose calls it read as data, and a line of agent text there is agent text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from referee.engine.run.model import Problem, ToolCall, Transcript
from referee.engine.run.safeio import join_report
from referee.engine.run.transcript_sections import (RECORD_HEADING, exact_headings, iter_record_starts,
                                                     last_record_start, may_hold_near_record, written_as_heading)

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

CODE = "metrics-without-calls"
CUT = "transcript-cut"  # the transcript ends inside a record
SKIPPED = "steps-missing"  # the first numbered section is above step 1
NEAR = "record-heading-near-miss"  # a line that looks like a record heading, not in the exact form
NOT_A_RECORD = "not-a-record"  # the parse's problem for such a line
_STATUS_LINE = re.compile(r"^Status:", re.MULTILINE)
_FIELD_LINE = re.compile(r"^(?:Tool|Args|Return|Status):", re.MULTILINE)
_FIRST_HEADING = re.compile(r"^ {0,3}#", re.MULTILINE)


def uncounted(run: Run) -> Problem | None:
    """Why ``run``'s transcript lacks calls its ``metrics.json`` counts; None when it
    holds as many (records trusted or not), when nothing is counted, or when the run
    was imported (the import wrote that file from the calls it read)."""
    source_map, problems = run.source_map
    counted = counted_calls(run.metrics.value if run.metrics is not None else None)
    if source_map is not None or problems or not counted:
        return None
    source = run.transcript_file
    if source is not None and source.text is not None and exact_headings(source.text) >= counted:
        return None  # known without parsing the transcript (engine.run.agents.calls_unknown)
    transcript = run.transcript
    held = len(transcript.calls) + len(transcript.suspect_calls)
    if held >= counted:
        return None
    where = join_report(run.id.rel, source.path if source is not None else "outputs/transcript.md")
    if not held:
        return Problem(CODE, where, f"metrics.json counts {counted} tool calls but the transcript has no "
                                    "[tool_calls] block: no call can be checked")
    return Problem(CODE, where, f"metrics.json counts {counted} tool calls but the transcript holds {held} "
                                "[tool_calls] records: the calls it lacks cannot be checked")


def counted_calls(value: Any) -> int:
    """The calls a ``metrics.json`` value counts: its ``total_tool_calls`` or the sum of
    its ``tool_calls`` per tool, whichever is more (a file that disagrees with itself
    counts at least as many); 0 when it counts none in a form read."""
    if not isinstance(value, dict):
        return 0
    per_tool = value.get("tool_calls")
    counts = [value.get("total_tool_calls")] + (list(per_tool.values()) if isinstance(per_tool, dict) else [])
    total, tools = _count(counts[0]), sum(_count(count) for count in counts[1:])
    return max(total, tools)


def _count(value: Any) -> int:
    """A count read as a number of calls; 0 for anything else (text, a flag, below 0)."""
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else 0


def cut_in_record(run: Run) -> Problem | None:
    """Why ``run``'s transcript was cut while it was written: its last element is a
    record with no ``Status:`` line (the line that closes a record), so the file ends
    inside it and any call after it is lost. None for an imported run (its views are
    checked against the digests the import recorded) and for a transcript whose last
    record is closed or followed by other text."""
    own = _own_transcript(run)
    if own is None:
        return None
    path, _, text = own
    last_start = last_record_start(text)
    if last_start is None or _STATUS_LINE.search(text, last_start):
        return None  # known without parsing: no record, or the last one has its Status line
    last = open_record(run.transcript)
    if last is None:
        return None
    step = f"step {last.step}" if last.step is not None else "its last record"
    return Problem(CUT, join_report(run.id.rel, path),
                   f"the transcript ends inside the [tool_calls] record of {step} (line {last.location.line}), "
                   "which has no Status line: the file was cut while it was written, and the calls after the "
                   "cut cannot be checked")


def open_record(transcript: Transcript) -> ToolCall | None:
    """The transcript's last element when it is a record with no ``Status:`` line:
    the file ends inside it (``cut_in_record``); else None."""
    elements = transcript.calls + transcript.suspect_calls + transcript.notes
    last = max(elements, key=lambda element: element.index, default=None)
    return last if isinstance(last, ToolCall) and last.status is None else None


def near_record(run: Run, parsed: bool = False) -> Problem | None:
    """Why ``run``'s own transcript may hold calls its parse did not read: the first
    line it reads as agent text though it looks like a record heading (``not-a-record``)
    and starts, after at most three spaces, with ``#``. None when there is none, and
    for an imported run.

    Only such a line: the escaping convention (``engine.run.escape``) puts a backslash
    before every line of agent text that starts so, so a harness that keeps it writes
    none from agent text, and one that does not may have let agent text hide a record
    or have written its own wrong. A line behind characters a reader may not see, or
    under full-width hashes, is agent text the convention leaves as written: reported,
    never proof that a call is missing. ``parsed``: the run's transcript was parsed
    already (the run tells it, ``Run.uncounted_calls``)."""
    own = _own_transcript(run)
    if own is None:
        return None
    # Asked before any parse (contamination asks it of runs it never parses), a search tells
    # most without one; once ``parsed`` (every grade parses first), its problems tell it all.
    if not parsed and not may_hold_near_record(own[2]):
        return None
    near = [p for p in run.transcript.problems if p.code == NOT_A_RECORD and p.line is not None]
    if not near:
        return None
    lines = own[2].removeprefix("\ufeff").split("\n")  # as the parse reads it
    found = next((p for p in near if p.line is not None and written_as_heading(lines[p.line - 1])), None)
    if found is None:
        return None
    return Problem(NEAR, found.path, f"a line {found.message}: the lines under it may be a call written in a form "
                                     "not read, so the calls cannot be checked in full", found.line)


def steps_missing(run: Run) -> Problem | None:
    """Why ``run``'s transcript lacks the sections numbered before its first one
    (``head_missing``); None when it starts at step 1, and for an imported run."""
    own = _own_transcript(run)
    if own is None:
        return None
    path, raw, text = own
    where = join_report(run.id.rel, path)
    if _starts_in_record(raw):
        return Problem(SKIPPED, where, "the transcript starts with a record's lines (Tool, Args, Return or Status) "
                                       "under no heading: the file was cut at its head, inside a record, and the "
                                       "calls before the cut cannot be checked")
    if _first_heading_step(text) <= 1:
        return None  # known without parsing: no record heading, or the first is step 1
    first = head_missing(run.transcript)
    if first is None:
        return None
    line, step = first
    return Problem(SKIPPED, where,
                   f"the transcript's first numbered section (line {line}) is step {step}: the sections numbered "
                   "before it are not there (the file cut at its head, or kept in part), and the calls they may "
                   "have held cannot be checked")


def head_missing(transcript: Transcript) -> tuple[int | None, int] | None:
    """The line and step of the transcript's first numbered section (a record, or a
    numbered ``[agent_notes]`` section) when it is above 1 and its first record's is
    too: one number per call or one counter shared with the notes, both count from 1,
    so the sections before it are missing. None when nothing is missing so."""
    records: list[tuple[float, int, int | None]] = [
        (call.index, call.step, call.location.line) for call in transcript.calls + transcript.suspect_calls
        if call.step is not None and call.agent == "main"]
    notes: list[tuple[float, int, int | None]] = [
        (note.index, note.step, note.location.line) for note in transcript.notes
        if note.tagged and note.kind == "agent_notes" and note.step is not None]
    if not records or min(records)[1] <= 1:
        return None
    _, step, line = min(records + notes)
    return None if step <= 1 else (line, step)


def _starts_in_record(text: str) -> bool:
    """Whether a record's field line (``Tool:``, ``Args:``, ``Return:``, ``Status:``)
    stands before the text's first heading: only inside a record is one written."""
    first = _FIRST_HEADING.search(text)
    return _FIELD_LINE.search(text, 0, len(text) if first is None else first.start()) is not None


def _own_transcript(run: Run) -> tuple[str, str, str] | None:
    """The run's own transcript (not an import's view, read without a problem): its
    path, its text, and its text with line ends made LF, as the parse reads it; None
    for any other run."""
    source_map, problems = run.source_map
    source = run.transcript_file
    if source_map is not None or problems or source is None or source.text is None:
        return None
    text = source.text
    return source.path, text, text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _first_heading_step(text: str) -> int:
    """The step of the first record heading in ``text`` (LF line ends; 0 when there is
    none): the parse reads every such heading as a record, trusted or not."""
    for start in iter_record_starts(text):
        end = text.find("\n", start)
        found = RECORD_HEADING.fullmatch(text, start, len(text) if end < 0 else end)
        if found is not None:
            return int(found.group(1))
    return 0
