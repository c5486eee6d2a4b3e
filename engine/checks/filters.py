"""The filters of a selection (``to``, ``with status``, ``at step``, ``where``),
compiled: each a ``Filter`` that decides on one element, and for calls whose
fields are all sure (``all_sure``) a ``pick`` that decides on many at once.
``engine.checks.sources`` applies them in a selection.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from referee.dsl import ast
from referee.dsl.format import format_condition
from referee.engine.checks.access import sure_of
from referee.engine.checks.base import Check, Context
from referee.engine.checks.run_sources import known_calls
from referee.engine.run import status_words
from referee.engine.values import EvalError, Val
from referee.engine.verdict import Outcome

# A 'where' that kept nothing is explained by its nearest miss among this many elements.
CLOSEST_LIMIT = 1000
# How many tool names, each of at most how many characters, a 'to' filter remembers
# its answer for, across runs (a name's answer never changes; a hostile run's
# 20 MB names are not kept).
KNOWN_NAMES, KNOWN_NAME_CHARS = 4096, 256
STATUSES = ("success", "error")  # the statuses 'with status' reads the meaning of


Pick = Callable[[Context, tuple[Val, ...]], tuple[Val, ...]]
Keep = Callable[[Context, Val], bool]


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


def all_sure(ctx: Context, calls: tuple[Val, ...]) -> bool:
    """True when no call of the run is unsure of any field (the usual case: only a
    record that broke the record grammar is) and every status says success or
    error (or no_result), read once per run: the filters' ``pick`` cannot say that
    they cannot decide."""
    return ctx.once(all_sure, lambda: not any(call.value.unsure for call in calls)
                    and None not in said_by(ctx, calls).values())


def said_by(ctx: Context, calls: tuple[Val, ...]) -> dict[str | None, str | None]:
    """What each status word of the run's ``calls`` says (``status_words.meaning``;
    None for a call without one), read once per run and word: a run of a thousand
    calls writes two or three words, and each pick by status would read every
    call's word again."""
    def read() -> dict[str | None, str | None]:
        words = {call.value.status for call in calls}
        return {word: None if word is None else status_words.meaning(word) for word in words}

    return ctx.once(said_by, read)


def _tool_filter(c, node: ast.ToolFilter, source: str, element: str) -> Filter:
    pattern = c.name_pattern(node.pattern)
    if source != "calls":
        c.error("bad-operand", f"'to' picks tool calls by tool name; {source} has no tools", node.span)
    if pattern is None:  # an invalid regex, already reported: select nothing
        return Filter(lambda ctx, item: False, "to ...", pick=_for_calls(source, lambda ctx, items: ()))
    test = pattern.tester("a tool name")
    twin_of = _case_twin(node.pattern.text) if node.pattern.kind == "exact" else None

    def keep(ctx: Context, item: Val) -> bool:
        call = sure_of(item, "tool")
        if twin_of is not None:
            twin_of(ctx)
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
        if twin_of is not None:
            twin_of(ctx)
        groups = _by_tool(ctx, items)
        if groups is None:  # a list already filtered: call by call
            return tuple(item for item in items if (tool := item.value.tool) is not None and answer(tool))
        found = [places for tool, places in groups.items() if tool is not None and answer(tool)]
        places = found[0] if len(found) == 1 else sorted(p for some in found for p in some)
        return tuple(items[p] for p in places)

    # A pattern whose match may end in an error is matched call by call, under the budget.
    return Filter(keep, "to ...", pick=None if pattern.may_fail else _for_calls(source, pick))


def _case_twin(name: str) -> Callable[[Context], None]:
    """For ``to "Bash"``: raise when the run calls no tool of that name but one whose
    name differs from it only in case (``bash``, as OpenAI-format harnesses name their
    shell): the same tool, most likely, under a rule written for another harness, and
    ``no calls to "Bash"`` passed over its ``rm -rf /``. Which one the rule means
    cannot be told. A run that calls both names reads the name as written."""
    folded = name.casefold()

    def twins(ctx: Context) -> list[str]:
        tools = _by_tool(ctx, known_calls(ctx)) or {}  # the run's calls by tool, grouped once
        if name in tools:
            return []
        return sorted(tool for tool in tools if tool is not None and tool.casefold() == folded)

    def check(ctx: Context) -> None:
        found = ctx.once(("case twins", name), lambda: twins(ctx))
        if found:
            raise EvalError(f"no call is to {name!r}, but the run calls {found[0]!r}, a name that differs only in "
                            "case: which tool the rule means cannot be told; write the name as the run has it")

    return check


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
        # all_sure held: every status of the run's calls, which ``items`` are some of,
        # says success, error or no_result
        said = said_by(ctx, known_calls(ctx))
        return tuple(item for item in items if said[item.value.status] == wanted)

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
    if items is not known_calls(ctx):
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
    key = tried_key(flt)
    return flt


def tried_key(flt: Filter) -> tuple:
    """Where a run's context keeps the verdicts a last 'where' gave while selecting."""
    return (flt, "tried")


# AST filter type → its compile function, called as f(compiler, node, source, element).
FILTERS: dict[type, Callable[..., Filter]] = {
    ast.ToolFilter: _tool_filter, ast.StatusFilter: _status_filter,
    ast.StepFilter: _step_filter, ast.WhereFilter: _where_filter,
}
