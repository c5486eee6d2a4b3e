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
from referee.dsl.frozen import frozen
from referee.engine.checks import inputs
from referee.engine.checks.base import Context
from referee.dsl.format import format_value
from referee.engine.checks.filters import CLOSEST_LIMIT, FILTERS, Filter, Keep, Pick, all_sure, tried_key
from referee.engine.checks.trust import claimed_tools, may_be_claimed, notes_claiming, searchable
from referee.engine.run.transcript import TRANSCRIPT
from referee.engine.values import EvalError, Missing, Prov, Result, Val
from referee.engine.verdict import Verdict
from referee.engine.checks.closeness import closest_first
from referee.engine.checks.run_sources import (FORMATS, SOURCES, PartlyRead, file_source, metrics_reader,
                                               read_in_part, records)

_TRANSCRIPT_NAME = posixpath.basename(TRANSCRIPT).casefold()
LIST_KINDS = {"calls": "calls", "notes": "notes", "harness": "notes", "outputs": "list"}
SOURCE_KINDS = {**LIST_KINDS, "response": "text"}  # what the compiler knows a source gives
FORMAT_KINDS = {"csv": "rows", "lines": "lines", "json": "any", "text": "text"}
EVIDENCE_SOURCE = {
    "calls": "tool_calls", "notes": "agent_notes", "harness": "harness", "response": "response",
    "outputs": "outputs", "file": "outputs", "metrics": "metrics", "timing": "timing",
    "metadata": "metadata", "input": "input",  # an input is not evidence of the run
}


@frozen
class Kept:
    """What a selection that cannot be made whole holds for certain: ``sure``, the
    elements every filter keeps; ``open``, how many more of those read it may keep (no
    filter drops them and one cannot decide on them, such as a call whose status is not
    told); ``unread``, when its source was read in part, why any number more may follow."""

    sure: tuple[Val, ...]
    open: int
    unread: PartlyRead | None


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

    def partly_kept(self, ctx: Context) -> Kept:
        """What a selection that cannot be made whole holds for certain (``Kept``): of a
        source read in part, what the filters keep of the elements read."""
        return ctx.once((self, "partly"), lambda: self._partly_kept(ctx))

    def _partly_kept(self, ctx: Context) -> Kept:
        items, unread = read_in_part(ctx, self.read)
        kept: list[Val] = []
        undecided = 0
        for item in items:
            found = _kept_for_certain(ctx, self.filters, item)
            if found is True:
                kept.append(item)
            undecided += isinstance(found, EvalError)
        return Kept(tuple(kept), undecided, unread)

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
            ctx.cache[tried_key(self.filters[-1])] = []  # what the last 'where' finds: see _tried
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
        found = ctx.cache.get(tried_key(flt)) if flt is self.filters[-1] else None
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


def _kept_for_certain(ctx: Context, filters: tuple[Filter, ...], item: Val) -> bool | EvalError:
    """Whether every filter keeps ``item``: False when one drops it (whatever another
    cannot decide: filters come in any order, and 'with status error to "Read"' keeps
    what 'to "Read" with status error' keeps), else the first filter's ERROR that cannot
    decide, else True."""
    undecided: EvalError | None = None
    for flt in filters:
        try:
            if not flt.keep(ctx, item):
                return False
        except EvalError as err:
            undecided = undecided or err
    return True if undecided is None else undecided


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

    def keep(ctx: Context, item: Val) -> bool:
        found = _kept_for_certain(ctx, filters, item)
        if isinstance(found, EvalError):
            raise found
        return found

    return keep


def _leading_picks(filters: tuple[Filter, ...]) -> tuple[tuple[Pick, ...], Keep | None]:
    """The picks of the filters before the first without one, and the keep of the rest."""
    picks: list[Pick] = []
    for flt in filters:
        if flt.pick is None:
            break
        picks.append(flt.pick)
    return tuple(picks), _keep_all(filters[len(picks):])


def _file_of(items: tuple[Val, ...]) -> str | None:
    files = {i.prov.file for i in items if i.prov is not None}
    return files.pop() if len(files) == 1 else None


def refuse_transcript(c, src: ast.Source) -> None:
    """The transcript is not a file operand: read whole, the agent's notes in it
    would pass for a tool's output. It is read as calls and notes, each with its
    own trust."""
    path = posixpath.normpath((src.path or "").replace("\\", "/")).casefold()  # "\\" separates, as when read
    if path in (_TRANSCRIPT_NAME, TRANSCRIPT.casefold()):
        c.error("bad-operand", f"file \"{src.path}\" is the run's transcript, which referee reads as tool "
                "calls and agent notes, each with its own trust: use calls (any calls to \"X\" have ...) "
                "or notes (any notes have .text contains \"...\") instead", src.span)


def compile_selection(c, node: ast.Selection, scope, reads: tuple[str | int, ...] = ()) -> Select:
    """A selection compiled to Python over the run's records (see the module doc);
    ``reads`` is the path a check reads from ``metrics`` (``metrics.tool_calls.Read``),
    on which what makes it an ERROR depends (``engine.checks.counted``)."""
    src = node.source  # a file operand was checked by the compiler (Compiler._check_file)
    kind = FORMAT_KINDS[src.fmt] if src.kind in ("file", "input") else SOURCE_KINDS.get(src.kind, "any")
    element = {"calls": "call", "notes": "note", "rows": "row"}.get(kind, "any")  # harness: notes
    read = file_source(src.path or "", src.fmt) if src.kind == "file" else \
        inputs.reader(c, src, FORMATS) if src.kind == "input" else \
        metrics_reader(reads) if src.kind == "metrics" and reads else SOURCES[src.kind]
    filters = tuple(FILTERS[type(f)](c, f, src.kind, element) for f in node.filters)
    tools = [f.pattern for f in node.filters if isinstance(f, ast.ToolFilter)]
    single = kind in ("text", "any") and src.kind != "outputs"
    picks, rest = _leading_picks(filters)
    return Select(read, filters, format_value(node), src.kind, single,
                  tools[0] if tools else None, kind, _keep_all(filters), picks, rest,
                  src.path if src.kind == "file" else None)
