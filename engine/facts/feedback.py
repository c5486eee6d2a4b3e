"""A deterministic critique of an eval's assertions, across all its runs.

skill-creator's grader writes ``eval_feedback`` in prose; here every suggestion
comes from a fact that can be re-checked:

- ``existence``: the assertion only checks that something exists, so a wrong
  answer passes it too (it is kept out of the release gate);
- ``vacuous``: it passed in some run only because nothing was there to examine
  (a negative check over a missing response, ``all`` over no calls);
- ``idle``: it only forbids something (``not response contains "{fdId}"``), and it
  passed in a run that made no tool calls while other runs of the eval made some:
  a run that did none of the work passes it too. Only runs whose record of calls
  was read whole count, as runs that made none; an eval none of whose runs made a
  call (a text skill) is never flagged;
- ``tool never called``: it selects calls of a tool that no run of the eval called,
  so it can only fail; if it forbids the tool and passed everywhere, only a tool of
  a near name called instead is worth a word (a misspelling makes it always pass);
- ``unseen reads``: it reads an argument field, a file or a timing/metrics field
  that no run of the eval has (an argument field only when every run's calls were
  read whole);
- ``no contrast``: it passed in every run of two or more configurations, so it does
  not tell the skill apart from the baseline.

The critique needs every run of the eval, so it is computed once per eval and the
same block is written into each of its runs. What it needs of the runs is folded
into an ``EvalTally`` as each run comes in (names, counts, the first few paths), so
an eval of 10,000 runs costs no more memory than an eval of ten.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, Sized

from referee.dsl import ast
from referee.dsl.frozen import frozen
from referee.engine.caps import DETAIL_LIMIT, cut
from referee.engine.checks.static import Read
from referee.engine.facts.contents import Contents, any_match, pattern_matcher, tool_hint, unseen
from referee.engine.text import display_text
from referee.engine.verdict import Precision

if TYPE_CHECKING:
    from referee.engine.compile import CompiledAssertion

# A list of runs in a suggestion names this many and counts the rest.
SHOWN_RUNS = 5


@frozen
class RunFacts:
    """What the critique needs from one graded run of the eval. ``contents`` (the
    names the run holds) is optional: without it, reads are not judged."""

    path: str
    configuration: str
    tools: tuple[str, ...]
    outcomes: tuple[str, ...]  # per assertion, in the eval's order
    vacuous: tuple[bool, ...]
    contents: Contents | None = None
    tools_certain: bool = True  # False: its transcript was unreadable, held untrusted records or no record


@dataclass
class EvalTally:
    """What the critique needs from the graded runs of an eval of ``positions``
    assertions, folded run by run (``add``) in discovery order."""

    positions: int
    runs: int = 0
    tools: set[str] = field(default_factory=set)
    tools_certain: bool = True
    configurations: set[str] = field(default_factory=set)
    contents: Contents | None = field(default_factory=Contents)  # None once a run has none
    passed_everywhere: list[bool] = field(default_factory=list)  # per assertion
    vacuous: list[list[str]] = field(default_factory=list)  # per assertion: the first runs' paths
    vacuous_count: list[int] = field(default_factory=list)
    working: int = 0  # runs that made at least one tool call
    idle: list[list[str]] = field(default_factory=list)  # per assertion: the first idle runs it passed in
    idle_count: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.passed_everywhere = [True] * self.positions
        self.vacuous = [[] for _ in range(self.positions)]
        self.vacuous_count = [0] * self.positions
        self.idle = [[] for _ in range(self.positions)]
        self.idle_count = [0] * self.positions

    def add(self, run: RunFacts) -> None:
        self.runs += 1
        self.tools.update(run.tools)
        self.tools_certain = self.tools_certain and run.tools_certain
        self.configurations.add(run.configuration)
        self.contents = None if self.contents is None or run.contents is None else self.contents | run.contents
        self.working += bool(run.tools)
        idle = run.tools_certain and not run.tools  # its whole record says: no call made
        for position in range(self.positions):
            passed = _at(run.outcomes, position) == "pass"
            self.passed_everywhere[position] = self.passed_everywhere[position] and passed
            if passed and _at(run.vacuous, position):
                _note(self.vacuous, self.vacuous_count, position, run.path)
            elif passed and idle:
                _note(self.idle, self.idle_count, position, run.path)


def _note(paths: list[list[str]], counts: list[int], position: int, path: str) -> None:
    counts[position] += 1
    if len(paths[position]) < SHOWN_RUNS:  # the rest are counted
        paths[position].append(path)


def eval_feedback(assertions: Sequence[CompiledAssertion], runs: Iterable[RunFacts] | EvalTally,
                  extra: Sequence[dict] = (), lets: Sequence[ast.Let] = ()) -> dict:
    """``{suggestions: [{reason, assertion}], overall}`` for one eval.

    ``assertions`` are the eval's compiled assertions (``text``, ``precision``,
    ``tool_patterns``, ``condition``); ``runs`` are its graded runs in discovery
    order, or their ``EvalTally``; ``extra`` are suggestions found elsewhere
    (``referee critique``'s, tagged with their source); ``lets`` are the eval's
    lets as written, through which a condition is read.
    """
    tally = runs if isinstance(runs, EvalTally) else _tally(len(assertions), runs)
    called = sorted(tally.tools)
    contents = tally.contents if tally.runs else None
    named = {let.name: let for let in lets}
    suggestions: list[dict] = []
    for position, assertion in enumerate(assertions):
        for reason in _reasons(assertion, position, tally, called, contents, named):
            suggestions.append({"reason": reason, "assertion": display_text(assertion)})
    suggestions += extra
    return {"suggestions": suggestions, "overall": _overall(suggestions, len(assertions), tally.runs)}


def _tally(positions: int, runs: Iterable[RunFacts]) -> EvalTally:
    tally = EvalTally(positions)
    for run in runs:
        tally.add(run)
    return tally


def _reasons(assertion: CompiledAssertion, position: int, tally: EvalTally, called: list[str],
             contents: Contents | None, lets: Mapping[str, ast.Let]) -> Iterable[str]:
    precision = Precision(assertion.precision)
    if precision is Precision.EXISTENCE:
        yield ("checks only that something exists: a wrong answer passes it too, so it does "
               "not count toward the gate; check the content instead")
    vacuous = tally.vacuous_count[position]
    if vacuous:
        yield (f"passed only because there was nothing to examine in {_count(range(vacuous), 'run')} "
               f"({_list(tally.vacuous[position], vacuous)}); pair it with a check that the thing exists")
    yield from _idle(assertion, position, tally, lets)
    yield from _never_called(assertion, position, tally, called)
    yield from _unseen_reads(assertion, contents, tally.tools_certain)
    if precision is not Precision.EXISTENCE:
        configurations = sorted(tally.configurations)
        everywhere = tally.runs and tally.passed_everywhere[position]
        if everywhere and len(configurations) >= 2 and not vacuous:
            yield (f"passed in every run of every configuration ({', '.join(configurations)}): "
                   "it does not tell the skill apart from the baseline")


def _idle(assertion: CompiledAssertion, position: int, tally: EvalTally,
          lets: Mapping[str, ast.Let]) -> Iterable[str]:
    """A check that only forbids, passed in runs that made no tool call while others
    of the eval made some: a run that did none of the work passes it too."""
    idle = tally.idle_count[position]
    condition = getattr(assertion, "condition", None)
    if not idle or not tally.working or condition is None:
        return
    from referee.engine.critique.claims import claims_of  # here: only an idle run asks what a check claims

    if not claims_of(condition, lets).forbids_only:
        return
    yield (f"passed in {_count(range(idle), 'run')} that made no tool call "
           f"({_list(tally.idle[position], idle)}) while {tally.working} other "
           f"{'run' if tally.working == 1 else 'runs'} of this eval made some: it only forbids something, "
           "and a run that did none of the work passes it too; pair it with a check that the work was done")


def _never_called(assertion: CompiledAssertion, position: int, tally: EvalTally,
                  called: list[str]) -> Iterable[str]:
    """An assertion selecting calls of tools that no run called.

    Tool names are matched with the compiled patterns the assertion's selections
    use (a match that ends in an error is not judged). If the assertion
    passed in every run, it is satisfied by the tool's absence (``count(...) == 0``,
    ``no calls to ...``): that is what its author wanted, so it is flagged only
    when the runs called a tool of a near name, which it may have meant."""
    patterns = getattr(assertion, "tool_patterns", ())
    matchers = getattr(assertion, "tool_matchers", ())
    if not patterns or not tally.runs or len(matchers) != len(patterns) or None in matchers:
        return
    if not tally.tools_certain:
        return  # a run whose record could not be read may have called it: nothing to say
    if any_match([pattern_matcher(m) for m in matchers], called) is not False:
        return  # called, or it cannot be told: nothing to say
    names = ", ".join(_shown(p) for p in patterns)
    seen = _list(called, len(called)) if called else "none"
    hint = _near_tool(patterns, called)
    if tally.passed_everywhere[position]:
        if hint:
            yield (f"forbids calls to {names}, which no run called (tools called: {seen}), so "
                   f"it cannot fail; {hint} A misspelt tool name would make it pass always")
        return
    yield (f"selects calls to {names}, which no run of this eval called (tools called: {seen}); "
           + (f"{hint} " if hint else "")
           + "check the tool name, or the eval never exercised this tool")


def _near_tool(patterns: Sequence[ast.NamePattern], called: list[str]) -> str | None:
    """"did you mean 'x'?" for the first pattern close to a called tool's name."""
    return next((hint for p in patterns if (hint := tool_hint(p.text, called))), None)


def _unseen_reads(assertion: CompiledAssertion, contents: Contents | None, calls_known: bool) -> Iterable[str]:
    """Fields and files the assertion reads that no run of the eval has. Argument
    fields only when ``calls_known``: a run whose calls could not be read whole may
    hold the field."""
    if contents is None:
        return
    for read in getattr(assertion, "reads", ()):
        if read.kind == "tool" or (read.kind == "arg" and not calls_known):
            continue
        found = unseen(read, contents)
        if found is not None:
            yield (f"reads {_read_text(read)}, but {found.message}"
                   + (f"; {found.hint}" if found.hint else "")
                   + "; check the name, or the runs never produce it")


def _read_text(read: Read) -> str:
    if read.kind == "file":
        return f'file "{read.name}"'
    if read.kind == "arg":
        return f"args.{read.name}"
    return f"{read.kind}.{read.name}"


def _shown(pattern: ast.NamePattern) -> str:
    if pattern.kind == "regex":
        return f"/{pattern.text}/{pattern.flags}"
    return pattern.text


def _overall(suggestions: list[dict], assertions: int, runs: int) -> str:
    if not suggestions:
        return (f"No deterministic critique of the {_count(range(assertions), 'assertion')} "
                f"over {_count(range(runs), 'run')}.")
    flagged = len({item["assertion"] for item in suggestions})
    return (f"{_count(suggestions, 'suggestion')} on {flagged} of "
            f"{_count(range(assertions), 'assertion')}, from {_count(range(runs), 'run')} of this eval.")


def _at(values: Sequence, position: int) -> Any:
    return values[position] if position < len(values) else None


def _count(items: Sized, noun: str) -> str:
    number = len(items)
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _list(items: Sequence[str], total: int) -> str:
    """The first ``SHOWN_RUNS`` of ``items`` (the first of ``total``), and how many more."""
    shown = ", ".join(cut(item, DETAIL_LIMIT) for item in items[:SHOWN_RUNS])  # a name can be megabytes
    return shown if total <= SHOWN_RUNS else f"{shown} and {total - SHOWN_RUNS} more"
