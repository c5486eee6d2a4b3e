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
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from referee.engine.run.model import Problem, ToolCall, Transcript
from referee.engine.run.safeio import join_report
from referee.engine.run.transcript_sections import exact_headings, record_starts

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

CODE = "metrics-without-calls"
CUT = "transcript-cut"  # the transcript ends inside a record
_STATUS_LINE = re.compile(r"^Status:", re.MULTILINE)


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
    source_map, problems = run.source_map
    source = run.transcript_file
    if source_map is not None or problems or source is None or source.text is None:
        return None
    text = source.text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in source.text else source.text
    starts = record_starts(text)
    if not starts or _STATUS_LINE.search(text, starts[-1]):
        return None  # known without parsing: no record, or the last one has its Status line
    last = open_record(run.transcript)
    if last is None:
        return None
    step = f"step {last.step}" if last.step is not None else "its last record"
    return Problem(CUT, join_report(run.id.rel, source.path),
                   f"the transcript ends inside the [tool_calls] record of {step} (line {last.location.line}), "
                   "which has no Status line: the file was cut while it was written, and the calls after the "
                   "cut cannot be checked")


def open_record(transcript: Transcript) -> ToolCall | None:
    """The transcript's last element when it is a record with no ``Status:`` line:
    the file ends inside it (``cut_in_record``); else None."""
    elements = transcript.calls + transcript.suspect_calls + transcript.notes
    last = max(elements, key=lambda element: element.index, default=None)
    return last if isinstance(last, ToolCall) and last.status is None else None
