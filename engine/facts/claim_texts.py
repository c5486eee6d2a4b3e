"""Where the claims are: the agent's tagged notes and the response, as numbered prose lines.

A note's lines are read as the transcript file has them (the parser's note text is
trimmed), from the line after its heading to the next element's heading; fenced
code and HTML comments are left out: they hold commands and data, not what the
agent says happened (``engine.facts.claims`` finds the claims in what is left).
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Any, Iterator

from referee.dsl.frozen import frozen
from referee.engine.text import file_lines

if TYPE_CHECKING:
    from referee.engine.run.model import Note, ToolCall
    from referee.engine.run.workspace import Run

# Note kinds whose text is the agent's own words. Only tagged ``[agent_notes]``
# blocks are read: an untagged section may be text the agent did not write, and
# harness text (the eval prompt, user turns) is never the agent's.
CLAIM_NOTE_KINDS = frozenset({"agent_notes"})
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


@frozen
class ClaimText:
    """One text claims are read in: a note or the response, as numbered prose lines."""

    kind: str  # "agent_notes" or "response"
    label: str  # "agent_notes step 3", "response"
    file: str
    lines: tuple[tuple[int, str], ...]  # (line number, text): the prose lines, code left out
    index: float  # transcript position; the response comes after every call


def claim_texts(run: Run) -> Iterator[ClaimText]:
    """The texts claims are read in: each tagged note, then the response."""
    for text, _ in note_texts(run):
        yield text
    response = run.response
    if response is not None and response.text:
        lines = _prose_lines(enumerate(response.text.split("\n"), 1))
        yield ClaimText("response", "response", response.path, lines, float("inf"))


def note_texts(run: Run) -> Iterator[tuple[ClaimText, Note]]:
    """Each tagged ``[agent_notes]`` note, as a text of its prose lines, with the note."""
    transcript = run.transcript
    notes = [note for note in transcript.notes
             if note.kind in CLAIM_NOTE_KINDS and getattr(note, "tagged", True)]
    if not notes:
        return
    raw = _raw_lines(run)
    elements: tuple[ToolCall | Note, ...] = (*transcript.calls, *transcript.notes)
    headings = sorted({e.location.line for e in elements if e.location.line})
    for note in notes:
        where = f"{note.kind} step {note.step}" if note.step is not None else note.kind
        lines = _prose_lines(_section_lines(note, raw, headings))
        yield ClaimText("agent_notes", where, note.location.file, lines, note.index), note


def _raw_lines(run: Run) -> list[str]:
    source = run.transcript_file
    return file_lines(source.text) if source is not None and source.text else []


def _section_lines(note: Note, raw: list[str], headings: list[int]) -> Iterator[tuple[int, str]]:
    """The note's lines as the file has them, numbered: from the line after its
    heading to the next element's heading (the parser's text is trimmed)."""
    heading = note.location.line
    if not heading or heading > len(raw):
        return enumerate(note.text.split("\n"), (heading or 0) + 1)
    after = bisect.bisect_right(headings, heading)
    end = headings[after] if after < len(headings) else len(raw) + 1
    return ((number, raw[number - 1]) for number in range(heading + 1, end))


def _prose_lines(numbered: Any) -> tuple[tuple[int, str], ...]:
    """The lines outside fenced code blocks and HTML comments: code and comments
    hold commands and data, not what the agent says happened."""
    kept = []
    fence: str | None = None
    comment = False
    for number, line in numbered:
        if comment:
            comment = "-->" not in line
            continue
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence) \
                    and not line[opened.end():].strip():
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        if line.lstrip().startswith("<!--"):
            comment = "-->" not in line
            continue
        kept.append((number, line))
    return tuple(kept)
