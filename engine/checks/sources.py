"""Selections: a source of the run (calls, notes, response, files...) and filters.
What each source reads from the run is ``engine.checks.run_sources``.

Selections compile to plain Python over the run's records: ``calls to glob
"*save*" with status success`` is a list comprehension over
``run.transcript.calls``. Used where one value is needed, a selection of a
single-valued source (response, a file, metrics) is that value; a list source
(calls, notes, outputs, CSV rows, lines) is a list whose elements keep their
own provenance.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Callable

from referee.dsl import ast
from referee.engine.checks import inputs
from referee.engine.checks.access import sure_of
from referee.engine.checks.base import Check, Context
from referee.dsl.format import format_condition, format_value
from referee.engine.checks.trust import claimed_tools, may_be_claimed, notes_claiming, searchable
from referee.engine.run import status_words
from referee.engine.run.transcript import TRANSCRIPT
from referee.engine.values import EvalError, Missing, Prov, Result, Val
from referee.engine.verdict import Outcome, Verdict
from referee.engine.checks.closeness import closest_first
from referee.engine.checks.run_sources import FORMATS, SOURCES, file_source, read_calls, records

_TRANSCRIPT_NAME = posixpath.basename(TRANSCRIPT).casefold()
LIST_KINDS = {"calls": "calls", "notes": "notes", "harness": "notes", "outputs": "list"}
SOURCE_KINDS = {**LIST_KINDS, "response": "text"}  # what the compiler knows a source gives
FORMAT_KINDS = {"csv": "rows", "lines": "lines", "json": "any", "text": "text"}
# A 'where' that kept nothing is explained by its nearest miss among this many elements.
CLOSEST_LIMIT = 1000
# How many tool names, each of at most how many characters, a 'to' filter remembers
# its answer for, across runs (a name's answer never changes; a hostile run's
# 20 MB names are not kept).
KNOWN_NAMES, KNOWN_NAME_CHARS = 4096, 256
STATUSES = ("success", "error")  # the statuses 'with status' reads the meaning of
EVIDENCE_SOURCE = {
    "calls": "tool_calls", "notes": "agent_notes", "harness": "harness", "response": "response",
    "outputs": "outputs", "file": "outputs", "metrics": "metrics", "timing": "timing",
    "metadata": "metadata", "input": "input",  # an input is not evidence of the run
}


Pick = Callable[[Context, tuple[Val, ...]], tuple[Val, ...]]


@dataclass(frozen=True, eq=False)
class Filter:
    """One compiled filter: ``keep`` decides; ``text`` is how the author wrote it;
    ``check`` is the condition of a ``where`` (to explain why nothing was kept).

    ``pick`` is the same decision over many tool calls at once, for a filter of
    calls that can neither fail nor take time on a call whose fields are all sure
    (``to`` a glob or an exact name, ``with status``, ``at step``); None for the
    others. Being sure is the caller's to check (``all_sure``): on a record that
    is unsure of the field, only ``keep`` raises the ERROR it must.
    """

    keep: Callable[[Context, Val], bool]
    text: str
    check: Check | None = None
    pick: Pick | None = None


@dataclass(frozen=True, eq=False)
class Select:
    """A compiled selection. ``items`` gives the selected elements; ``eval`` the value
    the selection stands for (list, or the single value of a one-value source).

    What a selection yields depends on the run alone, so each of these is computed
    once per run (``Context.once``, keyed by this object: identity, not equality).
    """

    read: Callable[[Context], tuple[Val, ...]]
    filters: tuple[Filter, ...]
    desc: str
    source: str  # the ast Source kind
    single: bool
    claims_for: ast.NamePattern | None = None  # when nothing is selected, look for claims of it
    kind: str = "any"
    keep: Callable[[Context, Val], bool] | None = None  # all filters at once; None: keep all
    # The leading filters that have a ``pick``, and the others combined (see _select).
    picks: tuple[Pick, ...] = ()
    rest: Callable[[Context, Val], bool] | None = None
    path: str | None = None  # the file a file selection reads (under outputs/)

    def items(self, ctx: Context) -> tuple[Val, ...]:
        return ctx.once((self, "items"), lambda: self._select(ctx))

    def eval(self, ctx: Context) -> Result:
        return ctx.once((self, "eval"), lambda: self._value(ctx))

    def claims(self, ctx: Context):
        """Agent notes that mention the tool this (empty) selection asked for."""
        pattern = self.claims_for
        if pattern is None:
            return ()
        # A quick look for the tool's name first: most runs never mention a tool they did not call.
        if not may_be_claimed(ctx.once(searchable, lambda: searchable(ctx.run)), pattern):
            return ()
        claimed = ctx.once(claimed_tools, lambda: claimed_tools(ctx.run))  # one read of the notes a run
        return ctx.once((self, "claims"), lambda: notes_claiming(claimed, pattern))

    def why_empty(self, ctx: Context) -> str:
        """Why nothing is selected: the source is empty, or which filter removed all."""
        return ctx.once((self, "why"), lambda: self._why_empty(ctx))

    def examined(self, ctx: Context) -> bool:
        """Whether a ``where`` of this selection looked at some element: a selection
        a ``where`` emptied examined what it filtered; one its source, ``to``,
        ``with status`` or ``at step`` emptied examined nothing."""
        return ctx.once((self, "examined"), lambda: self._examined(ctx))

    def _examined(self, ctx: Context) -> bool:
        items = self._source_items(ctx)
        sure = all_sure(ctx, items) if self.picks else False
        for flt in self.filters:
            if not items:
                return False
            if flt.check is not None:
                return True
            items = flt.pick(ctx, items) if sure and flt.pick is not None else \
                tuple(i for i in items if _may_keep(ctx, flt, i))
        return False

    def _source_items(self, ctx: Context) -> tuple[Val, ...]:
        return records(ctx, self.read)

    def _select(self, ctx: Context) -> tuple[Val, ...]:
        """The elements every filter keeps, tried element by element, so that the
        first element a filter fails on is the one an ERROR names.

        When no call is unsure of a field, the leading filters that cannot fail
        (``picks``) go over the whole list at once and the others then see the
        calls those kept, in order: each filter meets the very elements it meets
        element by element, without a function call per element and filter."""
        items = self._source_items(ctx)
        keep = self.keep
        if self.filters and self.filters[-1].check is not None:
            ctx.cache[_tried_key(self.filters[-1])] = []  # what the last 'where' finds: see _tried
        if self.picks and all_sure(ctx, items):
            for pick in self.picks:
                items = pick(ctx, items)
            keep = self.rest
        return items if keep is None else tuple(item for item in items if keep(ctx, item))

    def _value(self, ctx: Context) -> Result:
        items = self.items(ctx)
        if self.single:
            return items[0] if items else Missing(self.why_empty(ctx))
        claims = self.claims(ctx) if not items else ()
        prov = Prov(EVIDENCE_SOURCE[self.source], self.desc, _file_of(items))
        return Val([i.value for i in items], prov, items, claims,
                   empty="" if items else self.why_empty(ctx))

    def _why_empty(self, ctx: Context) -> str:
        items = self._source_items(ctx)
        if not items:
            return ctx.run.response_missing if self.source == "response" else self._no_source(ctx)
        sure = all_sure(ctx, items) if self.picks else False
        for flt in self.filters:
            kept = self._kept(ctx, flt, items, sure)
            if not kept and flt.check is not None:
                tried = self._tried(ctx, flt, items[:CLOSEST_LIMIT])
                nearest = closest_first(tried)[0][1]
                count = f"{len(items)} element" + ("" if len(items) == 1 else "s")
                label = "closest" if len(tried) > 1 else "first"
                return (f"{self._source_text()} has {count}, none {flt.text} "
                        f"({label}: {nearest.message})")
            items = kept
            if not items:
                break
        return f"there are no {self.desc}"

    def _tried(self, ctx: Context, flt: Filter, items: tuple[Val, ...]) -> list[tuple[Val, Verdict]]:
        """The verdict of a 'where' that kept nothing on each of ``items``: for the
        last filter, the ones it gave in _select (kept while selecting, so an
        empty selection is not judged twice), else judged now."""
        found = ctx.cache.get(_tried_key(flt)) if flt is self.filters[-1] else None
        if (found is not None and len(found) >= len(items)
                and all(seen is item for (seen, _), item in zip(found, items))):
            return found[:len(items)]
        check = flt.check
        assert check is not None  # only a filter with a 'where' is tried
        return [(i, check.evaluate(ctx.at(i))) for i in items]

    def _kept(self, ctx: Context, flt: Filter, items: tuple[Val, ...], sure: bool) -> tuple[Val, ...]:
        """What ``flt`` alone keeps of ``items`` (the elements the filters before it kept)."""
        if flt is self.filters[-1] and not self.items(ctx):
            return ()  # the last filter met these elements in _select and kept none
        if sure and flt.pick is not None:
            return flt.pick(ctx, items)
        return tuple(i for i in items if _may_keep(ctx, flt, i))

    def _source_text(self) -> str:
        return self.desc.split(" where ", 1)[0] if self.filters else self.desc

    def _no_source(self, ctx: Context) -> str:
        if self.source == "file":  # an empty file, or a header alone, has no line or row either
            there = self.path is not None and ctx.run.exists_output(self.path)
            return f"{self._source_text()}: " + ("the file is there, and holds none" if there else "the file does not exist")
        if self.source in ("calls", "notes", "harness"):
            return f"there are no {self.desc}"
        return f"{self.source} is missing"


def _may_keep(ctx: Context, flt: Filter, item: Val) -> bool:
    """Whether ``flt`` alone may keep ``item``, in a selection that kept nothing: an
    element it cannot decide on is one another filter dropped (else selecting it
    was that ERROR), so it is passed on to the filters after it."""
    try:
        return flt.keep(ctx, item)
    except EvalError:
        return True


def _keep_all(filters: tuple[Filter, ...]) -> Callable[[Context, Val], bool] | None:
    """One predicate for all filters, tried element by element (not filter by
    filter): when two filters would fail on different elements, the first
    element's failure is the one reported. A filter that cannot decide on an
    element (a call unsure of its status) fails only when no other filter drops
    it: filters come in any order, and 'with status error to "Read"' keeps what
    'to "Read" with status error' keeps."""
    if not filters:
        return None
    if len(filters) == 1:
        return filters[0].keep
    keeps = tuple(f.keep for f in filters)

    def keep(ctx: Context, item: Val) -> bool:
        undecided = None
        for one in keeps:
            try:
                if not one(ctx, item):
                    return False
            except EvalError as err:
                undecided = undecided or err
        if undecided is not None:
            raise undecided
        return True

    return keep


Keep = Callable[[Context, Val], bool]


def _leading_picks(filters: tuple[Filter, ...]) -> tuple[tuple[Pick, ...], Keep | None]:
    """The picks of the filters before the first without one, and the keep of the rest."""
    picks: list[Pick] = []
    for flt in filters:
        if flt.pick is None:
            break
        picks.append(flt.pick)
    return tuple(picks), _keep_all(filters[len(picks):])


def all_sure(ctx: Context, calls: tuple[Val, ...]) -> bool:
    """True when no call of the run is unsure of any field (the usual case: only a
    record that broke the record grammar is) and every status says success or
    error (or no_result), read once per run: the filters' ``pick`` cannot say that
    they cannot decide."""
    return ctx.once(all_sure, lambda: not any(call.value.unsure or _unread_status(call.value.status)
                                              for call in calls))


def _unread_status(status: str | None) -> bool:
    return status is None or status_words.meaning(status) is None


def _file_of(items: tuple[Val, ...]) -> str | None:
    files = {i.prov.file for i in items if i.prov is not None}
    return files.pop() if len(files) == 1 else None


# --------------------------------------------------------------------- filters


def _tool_filter(c, node: ast.ToolFilter, source: str, element: str) -> Filter:
    pattern = c.name_pattern(node.pattern)
    if source != "calls":
        c.error("bad-operand", f"'to' picks tool calls by tool name; {source} has no tools", node.span)
    if pattern is None:  # an invalid regex, already reported: select nothing
        return Filter(lambda ctx, item: False, "to ...", pick=_for_calls(source, lambda ctx, items: ()))
    test = pattern.tester("a tool name")

    def keep(ctx: Context, item: Val) -> bool:
        call = sure_of(item, "tool")
        return call.tool is not None and test(call.tool)

    known: dict[str, bool] = {}  # tool name -> kept: the same few names run after run

    def answer(tool: str) -> bool:
        hit = known.get(tool)
        if hit is None:
            hit = test(tool)
            if len(known) < KNOWN_NAMES and len(tool) <= KNOWN_NAME_CHARS:
                known[tool] = hit
        return hit

    def pick(ctx: Context, items: tuple[Val, ...]) -> tuple[Val, ...]:
        groups = _by_tool(ctx, items)
        if groups is None:  # a list already filtered: call by call
            return tuple(item for item in items if (tool := item.value.tool) is not None and answer(tool))
        found = [places for tool, places in groups.items() if tool is not None and answer(tool)]
        places = found[0] if len(found) == 1 else sorted(p for some in found for p in some)
        return tuple(items[p] for p in places)

    # A pattern whose match may end in an error is matched call by call, under the budget.
    return Filter(keep, "to ...", pick=None if pattern.may_fail else _for_calls(source, pick))


def _status_filter(c, node: ast.StatusFilter, source: str, element: str) -> Filter:
    """``with status success`` and ``with status error`` read what a call's status
    word says (``failed`` is an error, ``ok`` a success: ``engine.run.status_words``),
    and cannot decide on a word that may mean either (``timeout``): kept as written,
    ``no calls with status error`` passed over a call whose status said ``failed``.
    Any other word asked for is matched as written."""
    if source != "calls":
        c.error("bad-operand", f"'with status' applies to tool calls, not to {source}", node.span)
    wanted = node.status.casefold()
    if wanted not in STATUSES:
        def keep(ctx: Context, item: Val) -> bool:
            return (sure_of(item, "status").status or "").casefold() == wanted

        def pick(ctx: Context, items: tuple[Val, ...]) -> tuple[Val, ...]:
            return tuple(item for item in items if (item.value.status or "").casefold() == wanted)

        return Filter(keep, "with status", pick=_for_calls(source, pick))

    def keep_read(ctx: Context, item: Val) -> bool:
        status = sure_of(item, "status").status
        said = None if status is None else status_words.meaning(status)
        if said is None:
            raise EvalError(_unknown_status(item, status))
        return said == wanted

    def pick_read(ctx: Context, items: tuple[Val, ...]) -> tuple[Val, ...]:
        # all_sure held: every status says success, error or no_result
        return tuple(item for item in items if status_words.meaning(item.value.status or "") == wanted)

    return Filter(keep_read, "with status", pick=_for_calls(source, pick_read))


def _unknown_status(item: Val, status: str | None) -> str:
    call = item.value
    if status is None:  # a record without a Status line: the call may have failed
        return (f"{item.label} ({call.location.file}:{call.location.line}) has no Status line: whether the "
                "call failed cannot be told")
    line = call.status_line or call.location.line
    return (f"{item.label} has status {status!r} ({call.location.file}:{line}), which says neither success nor "
            "error: whether the call failed cannot be told (write success or error, or select the word as "
            f"written: 'with status {status.strip()}')")


def _step_filter(c, node: ast.StepFilter, source: str, element: str) -> Filter:
    if source not in ("calls", "notes", "harness"):
        c.error("bad-operand", f"'at step' applies to calls and notes, not to {source}", node.span)
    if node.step < 1:
        c.error("bad-step", "steps are numbered from 1", node.span)
    step = node.step
    return Filter(lambda ctx, item: item.value.step == step, "at step",
                  pick=_for_calls(source, lambda ctx, items: tuple(i for i in items if i.value.step == step)))


def _by_tool(ctx: Context, items: tuple[Val, ...]) -> dict[str | None, list[int]] | None:
    """Where each tool's calls are in ``items`` when ``items`` is the run's whole list
    of calls (made once per run, so that each 'to' asks its pattern about each
    tool the run called, not about each call); None for any other list."""
    if items is not records(ctx, read_calls):
        return None

    def group() -> dict[str | None, list[int]]:
        places: dict[str | None, list[int]] = {}
        for place, item in enumerate(items):
            places.setdefault(item.value.tool, []).append(place)
        return places

    return ctx.once(_by_tool, group)


def _for_calls(source: str, pick: Pick) -> Pick | None:
    """``pick`` for a selection of calls; None for another source (which the
    compiler has refused the filter on)."""
    return pick if source == "calls" else None


def _where_filter(c, node: ast.WhereFilter, source: str, element: str) -> Filter:
    check = c.cond(node.condition, c.element_scope(element))

    def keep(ctx: Context, item: Val) -> bool:
        verdict = check.evaluate(ctx.at(item))
        if verdict.outcome is Outcome.ERROR:
            raise EvalError(f"'where' on {item.label}: {verdict.message}", verdict.evidence)
        tried = ctx.cache.get(key)  # set while its selection selects (Select._select)
        if tried is not None and len(tried) < CLOSEST_LIMIT:
            tried.append((item, verdict))
        return verdict.outcome is Outcome.PASS

    flt = Filter(keep, f"where {format_condition(node.condition)}", check)
    key = _tried_key(flt)
    return flt


def _tried_key(flt: Filter) -> tuple:
    """Where a run's context keeps the verdicts a last 'where' gave while selecting."""
    return (flt, "tried")


# AST filter type → its compile function, called as f(compiler, node, source, element).
FILTERS: dict[type, Callable[..., Filter]] = {
    ast.ToolFilter: _tool_filter, ast.StatusFilter: _status_filter,
    ast.StepFilter: _step_filter, ast.WhereFilter: _where_filter,
}


def refuse_transcript(c, src: ast.Source) -> None:
    """The transcript is not a file operand: read whole, the agent's notes in it
    would pass for a tool's output. It is read as calls and notes, each with its
    own trust."""
    path = posixpath.normpath(src.path or "").casefold()
    if path in (_TRANSCRIPT_NAME, TRANSCRIPT.casefold()):
        c.error("bad-operand", f"file \"{src.path}\" is the run's transcript, which referee reads as tool "
                "calls and agent notes, each with its own trust: use calls (any calls to \"X\" have ...) "
                "or notes (any notes have .text contains \"...\") instead", src.span)


def compile_selection(c, node: ast.Selection, scope) -> Select:
    """A selection compiled to Python over the run's records (see the module doc)."""
    src = node.source  # a file operand was checked by the compiler (Compiler._check_file)
    kind = FORMAT_KINDS[src.fmt] if src.kind in ("file", "input") else SOURCE_KINDS.get(src.kind, "any")
    element = {"calls": "call", "notes": "note", "rows": "row"}.get(kind, "any")  # harness: notes
    read = file_source(src.path or "", src.fmt) if src.kind == "file" else \
        inputs.reader(c, src, FORMATS) if src.kind == "input" else SOURCES[src.kind]
    filters = tuple(FILTERS[type(f)](c, f, src.kind, element) for f in node.filters)
    tools = [f.pattern for f in node.filters if isinstance(f, ast.ToolFilter)]
    single = kind in ("text", "any") and src.kind != "outputs"
    picks, rest = _leading_picks(filters)
    return Select(read, filters, format_value(node), src.kind, single,
                  tools[0] if tools else None, kind, _keep_all(filters), picks, rest,
                  src.path if src.kind == "file" else None)
