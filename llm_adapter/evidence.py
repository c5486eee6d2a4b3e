"""What the grader may see of a run, cut into segments that remember their place.

The same segments are rendered into the prompt and searched when the grader's
quotes are verified, so a verified quote can always be pointed at a file and line.
Sources, most trusted first: ``tool_calls`` (the raw ``[tool_calls]`` blocks),
``response`` (outputs/response.md), ``outputs`` (the other output files),
``agent_notes`` (``[agent_notes]`` blocks, other transcript prose, user_notes.md)
(a subagent's transcript, ``subagents/step-N.md``, gives calls and notes as the main one does;
what the subagent answered the call that started it is its own account, so agent notes)
and ``harness`` (text the harness injected: the eval prompt, user turns, reminders).
"""

from __future__ import annotations

import bisect
from dataclasses import replace
from typing import TYPE_CHECKING

from referee.dsl.frozen import frozen
from referee.engine.facts.metrics import run_skill_type as skill_type  # the one decision
from referee.engine.text import file_lines

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

SOURCE_ORDER = ("tool_calls", "response", "outputs", "agent_notes", "harness")
PASS_SOURCES = frozenset({"tool_calls", "response", "outputs"})
TRANSCRIPT = "transcript.md"
SUBAGENTS = "subagents/"  # where an import writes a subagent's transcript: subagents/step-N.md
USER_NOTES = "user_notes.md"
# Executor statistics, not something the run delivered; deterministic checks read it.
NOT_EVIDENCE = frozenset({"metrics.json"})
MAX_SHOWN = 40_000  # characters of one segment the grader is shown: one huge file must not crowd out the rest


@frozen
class Segment:
    """A contiguous piece of one source. ``line`` is the file line of ``text``'s first line.
    ``shown`` is how many characters of ``text`` the grader is shown when that is not all
    of it: a quote must be found within them (``quotes.locate``)."""

    source: str
    file: str
    line: int
    text: str
    step: int | None = None
    label: str = ""
    shown: int | None = None
    # File lines (first, last) of values the import could not show whole, and what each
    # is ("the return of step 1"): the rules make such a value unknown, so a quote of
    # it proves nothing (``verify``), and the grader is told (``prompt``).
    unread: tuple[tuple[int, int, str], ...] = ()
    # File lines (first, last) shown with the segment that are no part of what it
    # stands for: the comments before a tool-call record's fields, which every reader
    # of the record skips. A quote is never found there (``quotes``).
    aside: tuple[tuple[int, int], ...] = ()

    def unread_at(self, first: int, last: int) -> str | None:
        """What the text on file lines ``first`` to ``last`` shares with an unread value."""
        return next((what for start, end, what in self.unread if start <= last and first <= end), None)


@frozen
class RunEvidence:
    segments: tuple[Segment, ...]
    skill_type: str
    unreadable: tuple[str, ...] = ()  # output files that could not be read as text

    def of(self, source: str) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.source == source)


def collect(run: Run) -> RunEvidence:
    """Gather every segment of ``run`` in source order (see module docstring)."""
    transcript = getattr(run, "transcript", None)
    raw = _raw_transcript(run)
    unsure = _unsure_calls(run)
    subagents = frozenset(view.path for view, _ in _subagent_transcripts(run))
    calls, notes = _transcript_segments(transcript, raw, unsure, _starts(subagents, "step-"))
    for view, parsed in _subagent_transcripts(run):  # their calls are the run's: checks over calls see them
        name = view.path.removeprefix(SUBAGENTS).removesuffix(".md")
        agent_calls, agent_notes = _transcript_segments(parsed, (view.path, file_lines(view.text)), unsure,
                                                        _starts(subagents, f"{name}."))
        calls += agent_calls
        notes += agent_notes
    response = _response_segment(run)
    if response and getattr(run.response, "section", None) is not None:
        notes = [n for n in notes if not _within(n, response[0])]
    outputs, unreadable, user_notes = _output_segments(run)
    segments = calls + response + outputs + notes + user_notes
    return RunEvidence(tuple(_cut(s) for s in segments), skill_type(run), tuple(unreadable))


def _cut(segment: Segment) -> Segment:
    """``segment``, shown up to ``MAX_SHOWN`` characters when it is longer."""
    return replace(segment, shown=MAX_SHOWN) if len(segment.text) > MAX_SHOWN else segment


def _calls(transcript: object) -> tuple:
    return tuple(getattr(transcript, "calls", ()) or ())


def _raw_transcript(run: Run) -> tuple[str, list[str]] | None:
    """The lines of the transcript the parser read (the harness's, beside outputs/,
    wins over the agent's copy inside it), so tool-call blocks are quoted verbatim.
    They are counted as the parser counts them (a lone CR ends a line too): the
    elements' lines index them, and a block cut at other lines would hold the next
    element's text, agent notes shown and verified as a tool call."""
    text_file = getattr(run, "transcript_file", None)
    if text_file is None or text_file.text is None:
        return None
    return text_file.path, file_lines(text_file.text)


def _subagent_transcripts(run: Run) -> tuple:
    """The subagents' transcripts an import wrote (``subagents/step-N.md``), as read
    and as parsed when the run's calls were (``Run.every_call``)."""
    found = getattr(run, "every_call", None)
    return tuple((view, parsed) for view, parsed in getattr(found, "transcripts", ()) if view.text is not None)


def _unsure_calls(run: Run) -> dict[tuple[str, int | None], frozenset[str]]:
    """The fields each call cannot give for certain (an import's ``unread``, marked on
    ``Run.every_call``), by the call's file and heading line."""
    found = getattr(run, "every_call", None)
    return {(c.location.file, c.location.line): c.unsure for c in getattr(found, "calls", ()) if c.unsure}


def _unread_lines(call, unsure: frozenset[str]) -> tuple[tuple[int, int, str], ...]:
    """The file lines of ``call``'s fields in ``unsure``, each with what it is."""
    step = f"step {call.step}" if call.step is not None else f"the call at line {call.location.line}"
    spans = []
    for name, payload in (("args", call.args), ("return", call.result)):
        if name in unsure and payload is not None:
            spans.append((payload.line, payload.line + payload.text.count("\n"), f"the {name} of {step}"))
    for name, line in (("status", call.status_line), ("tool", call.tool_line), ("title", call.location.line)):
        if name in unsure and line:
            spans.append((line, line, f"the {name} of {step}"))
    return tuple(spans)


def _starts(subagents: frozenset[str], prefix: str) -> frozenset[int]:
    """The steps of a transcript's calls that started a subagent whose transcript is
    there: ``subagents/<prefix>N.md`` (``step-N`` for the main agent's, ``step-N.K``
    for a subagent's own)."""
    steps = (path.removeprefix(SUBAGENTS + prefix).removesuffix(".md") for path in subagents
             if path.startswith(SUBAGENTS + prefix))
    return frozenset(int(step) for step in steps if step.isdigit())


def _transcript_segments(transcript, raw, unsure, started: frozenset[int] = frozenset()
                         ) -> tuple[list[Segment], list[Segment]]:
    calls = list(_calls(transcript))
    notes = list(getattr(transcript, "notes", ()) or ())
    starts = sorted({e.location.line for e in calls + notes if e.location.line})
    call_segments = [_call_segment(c, raw, starts, unsure.get((c.location.file, c.location.line), frozenset()))
                     for c in calls]
    reports = [_report(segment, call) for segment, call in zip(call_segments, calls) if call.step in started]
    call_segments = [_without_report(segment, call) if call.step in started else segment
                     for segment, call in zip(call_segments, calls)]
    note_segments = [_note_segment(n, raw, starts) for n in notes]
    return call_segments, [r for r in reports if r is not None] + note_segments


def _report_line(segment: Segment, call) -> int | None:
    """Where, in ``segment``'s text, the ``Return:`` of a call that started a subagent
    begins (an index of its lines); None when it is not within the segment."""
    result = getattr(call, "result", None)
    at = (result.line - segment.line) if result is not None and result.line else -1
    return at if 0 < at <= segment.text.count("\n") else None


def _report(segment: Segment, call) -> Segment | None:
    """What a subagent answered the call that started it, as agent notes: its own
    account of its work, the words of a model and not a tool's output (its calls, in
    its transcript, are the evidence of what it did)."""
    at = _report_line(segment, call)
    if at is None:
        return None
    text = "\n".join(segment.text.split("\n")[at:])
    return replace(segment, source="agent_notes", line=segment.line + at, text=text,
                   label=f"{segment.label}: the subagent's report", aside=())


def _without_report(segment: Segment, call) -> Segment:
    """``segment`` up to the ``Return:`` of a call that started a subagent (``_report``)."""
    at = _report_line(segment, call)
    return segment if at is None else replace(segment, text="\n".join(segment.text.split("\n")[:at]))


def _block(raw, line: int | None, starts: list[int]) -> tuple[int, str] | None:
    """The raw lines from a heading up to the next element's heading."""
    if raw is None or not line:
        return None
    _, lines = raw
    after = bisect.bisect_right(starts, line)  # starts is sorted: one search, not a scan per block
    end = (starts[after] - 1) if after < len(starts) else len(lines)
    body = lines[line - 1:end]
    while body and not body[-1].strip():
        body.pop()
    return line, "\n".join(body)


def _call_segment(call, raw, starts, unsure: frozenset[str]) -> Segment:
    block = _block(raw, call.location.line, starts)
    aside: tuple[tuple[int, int], ...] = ()
    if block is not None and call.tool_line and call.tool_line > block[0] + 1:
        aside = ((block[0] + 1, call.tool_line - 1),)  # blank lines and comments before "Tool:"
    if block is None:  # no raw text: rebuild the block from the parsed record
        parts = [f"Tool: {call.tool}" if call.tool else "",
                 f"Args: {call.args.text}" if call.args else "",
                 f"Return: {call.result.text}" if call.result else "",
                 f"Status: {call.status}" if call.status else ""]
        block = (call.location.line or 1, "\n".join(p for p in parts if p))
    return Segment("tool_calls", call.location.file, block[0], block[1], call.step,
                   call.title or (call.tool or ""), unread=_unread_lines(call, unsure), aside=aside)


def _note_segment(note, raw, starts) -> Segment:
    block = _block(raw, note.location.line, starts)
    if block is None:
        block = ((note.location.line or 0) + 1, note.text)
    source = "harness" if note.kind == "harness" else "agent_notes"  # the parser's word for it
    return Segment(source, note.location.file, block[0], block[1], note.step, note.title)


def _one_line_end(text: str) -> str:
    """``text`` with every line ended by ``\\n``: a quote's line is counted in it, and
    must be the line every other citation gives (``engine.text.file_lines``: a lone
    CR ends a line too)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _response_segment(run) -> list[Segment]:
    response = getattr(run, "response", None)
    if response is None or response.text is None:
        return []
    # An executor log's "## Final Result" section starts on its own line of the log.
    return [Segment("response", response.path, response.line or 1, _one_line_end(response.text))]


def _response_output(run) -> str | None:
    """The output file (its path under outputs/) that is shown whole as the response;
    None when the response is no such file (none, unreadable, a section of a log, a
    file outside outputs/)."""
    response = getattr(run, "response", None)
    if response is None or response.text is None or response.section is not None:
        return None
    return response.path.removeprefix("outputs/") if response.path.startswith("outputs/") else None


def _within(note: Segment, response: Segment) -> bool:
    """Whether ``note`` is a part of the transcript that is the response (an executor
    log's ``## Final Result`` section, its own headings too): shown as the response,
    it is not shown again among the notes."""
    last = response.line + response.text.count("\n")
    return note.file == response.file and note.line <= last and response.line <= note.line + note.text.count("\n")


def _output_segments(run) -> tuple[list[Segment], list[str], list[Segment]]:
    """Other output files as ``outputs``; user_notes.md is the agent's own words.
    The file that is the response, shown whole as such (response.md, or the one the
    harness named), is left out: shown twice, the same words would stand under two
    sources. When the harness names another file, response.md is an output like any
    other. So is transcript.md: when the harness's transcript lies beside outputs/,
    the one inside is the agent's."""
    outputs: list[Segment] = []
    notes: list[Segment] = []
    unreadable: list[str] = []
    names: list[str] = getattr(run, "output_files", lambda: [])()
    shown = _response_output(run)
    transcript = getattr(getattr(run, "transcript_file", None), "path", None) == f"outputs/{TRANSCRIPT}"
    for rel in sorted(names):
        if (rel == TRANSCRIPT and transcript) or rel == shown or rel in NOT_EVIDENCE:
            continue
        text_file = run.read_output(rel)
        if text_file is None or text_file.text is None:
            unreadable.append(f"outputs/{rel}")
            continue
        source = "agent_notes" if rel == USER_NOTES else "outputs"
        segment = Segment(source, text_file.path, 1, _one_line_end(text_file.text))
        (notes if source == "agent_notes" else outputs).append(segment)
    return outputs, unreadable, notes
