"""Every call of a run: the main agent's, its subagents', and what an import could not read.

The language's ``calls`` is ``Run.every_call``; counts and metrics stay the main
agent's (``Run.transcript``). Beyond the main transcript's records, an imported run
(one with ``source_map.json``, ``engine.run.importers``) may hold:

- **Subagents.** The work of a subagent is written to ``subagents/step-N.md`` (a
  dual-section transcript named in the source map), N being the step of the main
  agent's call that started it; a subagent's own subagent is ``step-N.K.md``. Their
  calls are calls of the run too: each has ``agent`` set to its file's stem
  (``step-N``) and stands right after the call that started it, its ``index``
  between that call's and the next element's (a fraction: the main agent's elements
  keep theirs). A subagent file that cannot be read makes ``unknown`` say so.
- **Values the view could not show whole** (the map's ``unread``: a value cut, or
  not JSON in its source): the call is unsure of that field, so a check that
  reads it is an ERROR, never "no such field".
- **Lines that may hold a call and could not be read** (an import problem
  ``calls-may-be-missing``): ``unknown`` names it, and a check over calls is an
  ERROR, never a PASS on a list that may lack the call it looks for.
- **Calls a run not imported counts in its ``metrics.json`` and its transcript lacks**
  (``engine.run.uncounted``): ``unknown`` names them, as above.
- **A view that is not what the import wrote** (its SHA-256 is not the one the
  source map records: edited since, or left short by a machine that stopped just
  after the import, which does not wait for the disk, see docs/import.md), or a
  ``source_map.json`` that cannot be read: ``unknown`` says so, as above.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from referee.dsl.frozen import frozen
from referee.engine.run.model import Problem, TextFile, ToolCall, Transcript
from referee.engine.run.import_views import view_as_written
from referee.engine.run.safeio import join_report
from referee.engine.run.transcript import TRANSCRIPT, parse_transcript

if TYPE_CHECKING:
    from referee.engine.run.importers.source_map import SourceMap
    from referee.engine.run.workspace import Run

MAIN = "main"
CALLS_MAY_BE_MISSING = "calls-may-be-missing"  # the import problem that makes every check over calls an ERROR
# How an OpenAI import's CALLS_MAY_BE_MISSING opens where the document gives a second message
# list: the calls read may then be no calls of the run at all (readers differ on which list
# a document holds), so they decide nothing (``checks.run_sources``).
SECOND_LIST = "a second message list"
SUBAGENT_FILE = re.compile(r"subagents/(step-([1-9][0-9]{0,8}(?:\.[1-9][0-9]{0,8})*))\.md")

Reader = Callable[[str], TextFile | None]  # a path relative to the run -> its text (Run._text)


@frozen
class Calls:
    """The run's calls in order, trusted and suspect, the main agent's and its
    subagents'; ``unknown`` is why the list may be incomplete (None when it is whole)."""

    calls: tuple[ToolCall, ...] = ()
    unknown: Problem | None = None
    # The subagents' transcripts these calls were read from, in file order, each as read
    # and as parsed: the LLM grader is shown them beside the main one (``llm_adapter.evidence``).
    transcripts: tuple[tuple[TextFile, Transcript], ...] = ()

    def incomplete(self) -> str | None:
        """Why the list may lack calls, as a check over them and the grader's refusal
        say it; None when it is whole."""
        return incomplete(self.unknown)


def incomplete(unknown: Problem | None) -> str | None:
    """``Calls.incomplete`` of a list whose ``unknown`` is given."""
    return None if unknown is None else f"the run's calls may be incomplete ({unknown.place}: {unknown.message})"


def every_call(run: Run, read: Reader) -> Calls:
    """The calls of ``run``; ``read`` reads its files."""
    transcript = run.transcript
    main = transcript.calls + transcript.suspect_calls
    source_map, problems = run.source_map
    if source_map is None:  # not imported (the transcript is the whole record), or a map that cannot be read
        return Calls(main, next(iter(problems), None) or run.uncounted_calls)
    unread = source_map.unread
    main = _unsure(main, unread)
    unknown = _import_unknown(run, source_map)
    agents: dict[str, tuple[ToolCall, ...]] = {}
    views: list[tuple[TextFile, Transcript]] = []
    for rel, name in _subagent_files(source_map):
        view = read(rel)
        problem = _subagent_problem(view, rel, run.id.rel, source_map.digests)
        parsed = _parsed(view, rel, run.id.rel)
        found = () if parsed is None else parsed.calls + parsed.suspect_calls
        agents[name] = _unsure(tuple(replace(c, agent=name) for c in found), unread)
        unknown = unknown or problem
        views += [(view, parsed)] if view is not None and parsed is not None and problem is None else []
    if not agents:
        return Calls(main, unknown)
    elements = transcript.calls + transcript.suspect_calls + transcript.notes
    after = 1 + max((e.index for e in elements), default=-1)
    return Calls(tuple(_merged(main, agents, MAIN, after)), unknown, tuple(views))


def calls_unknown(run: Run, read: Reader) -> Problem | None:
    """``every_call(run, read).unknown``, found without parsing a transcript: every
    reason it gives lies in the source map, in a view's digest or in a subagent file
    that cannot be read, never in the calls themselves. For a reader that asks only
    whether the calls are whole (``engine.decision.contamination``, over every run), but
    for a run not imported whose ``metrics.json`` counts calls (``engine.run.uncounted``)."""
    source_map, problems = run.source_map
    if source_map is None:  # the transcript is parsed only when metrics.json counts calls
        return next(iter(problems), None) or run.uncounted_calls
    unknown = _import_unknown(run, source_map)
    for rel, _ in _subagent_files(source_map):
        unknown = unknown or _subagent_problem(read(rel), rel, run.id.rel, source_map.digests)
    return unknown


def _import_unknown(run: Run, source_map: SourceMap) -> Problem | None:
    """Why the main transcript may lack calls: a line of the source the import could
    not read, or a view that is not the text the import wrote."""
    unknown = next((p for p in source_map.problems if p.code == CALLS_MAY_BE_MISSING), None)
    return unknown or view_changed(run.transcript_file, TRANSCRIPT, source_map.digests, run.id.rel)


def _subagent_files(source_map: SourceMap) -> list[tuple[str, str]]:
    """``(path, subagent name)`` of each subagent transcript the import wrote, in path order."""
    named = (SUBAGENT_FILE.fullmatch(rel) for rel in sorted(source_map.lines))
    return [(found.group(0), found.group(1)) for found in named if found is not None]


def _parsed(view: TextFile | None, rel: str, base: str) -> Transcript | None:
    """A subagent's transcript as parsed; None when it cannot be read."""
    if view is None or view.text is None or view.unreadable is not None:
        return None
    return parse_transcript(view.text, rel, join_report(base, rel))


def _subagent_problem(found: TextFile | None, rel: str, base: str, digests: dict[str, str]) -> Problem | None:
    """Why the calls of a subagent's transcript may not all be there (None when they are)."""
    report = join_report(base, rel)
    if found is None:
        return Problem("not-found", report, "a subagent transcript the import wrote is missing")
    if found.text is None or found.unreadable is not None:
        return found.unreadable or Problem("unreadable", report, "cannot be read")
    return view_changed(found, rel, digests, base)


def view_changed(view: TextFile | None, written: str, digests: dict[str, str], base: str) -> Problem | None:
    """Why ``view``, graded in the place of ``written`` (a file the import wrote), may
    not show the source: it is another file (one put beside ``outputs/``, which the
    harness's place makes win), or not the text the import wrote (the SHA-256 the
    source map records). None when it is, when the import wrote no ``written``, or
    when it could not be read (the checks that read it say so)."""
    if view is None or view.text is None or written not in digests:
        return None
    if view.path != written:
        return Problem("view-changed", join_report(base, view.path), f"the run is graded from {view.path}, which "
                       f"the import did not write (it wrote {written}): it may not show the source; import the "
                       "source again")
    if view_as_written(view, digests[written]):
        return None
    return Problem("view-changed", join_report(base, written), "not the text the import wrote (edited since, or "
                   "left short when the machine stopped): it may not show the source; import the source again")


def _unsure(calls: tuple[ToolCall, ...], unread: dict[str, dict[int, tuple[str, ...]]]) -> tuple[ToolCall, ...]:
    """``calls`` with the fields their view could not show whole marked unsure."""
    if not unread:
        return calls
    marked = []
    for call in calls:
        fields = unread.get(call.location.file, {}).get(call.location.line or 0)
        marked.append(call if not fields else replace(call, unsure=call.unsure | _with_title(fields)))
    return tuple(marked)


def _with_title(fields: tuple[str, ...]) -> frozenset[str]:
    """``fields``, and the title when the tool is among them: the import titles a call
    by its tool (``## [tool_calls] Step N: <tool>``), so a title read from the same
    bytes is no surer than the tool."""
    return frozenset(fields) | ({"title"} if "tool" in fields else set())


def _merged(calls: tuple[ToolCall, ...], agents: dict[str, tuple[ToolCall, ...]], agent: str,
            after: float) -> list[ToolCall]:
    """``calls`` of ``agent``, each followed by the calls of the subagent it started;
    subagents whose starting call is not there come last, from ``after`` on."""
    prefix = "step-" if agent == MAIN else f"{agent}."
    children = {name: int(name[len(prefix):]) for name in agents
                if name.startswith(prefix) and name[len(prefix):].isdigit()}
    by_step = {step: name for name, step in children.items()}
    out: list[ToolCall] = []
    for call in calls:
        out.append(call)
        name = by_step.pop(call.step, None) if call.step is not None else None
        if name is not None:
            out.extend(_placed(agents, name, call.index))
    for step in sorted(by_step):  # started by no call the transcript shows: at the end
        out.extend(_placed(agents, by_step[step], after))
        after += 1
    return out


def _placed(agents: dict[str, tuple[ToolCall, ...]], name: str, start: float) -> list[ToolCall]:
    """The calls of subagent ``name`` (and its own subagents'), indexed after ``start``
    and before ``start + 1``: its k-th element at ``start + (k + 1) / 10**d``, d the
    digits of its element count (the same on every machine: IEEE arithmetic)."""
    own = agents[name]
    size = 1 + int(max((c.index for c in own), default=0))
    scale = 10.0 ** len(str(size + 1))
    placed = tuple(replace(c, index=start + (c.index + 1) / scale) for c in own)
    return _merged(placed, agents, name, start + (size + 1) / scale)
