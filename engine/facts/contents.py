"""What the runs of an eval contain, and what a rule reads that none of them has.

A misspelt tool name, argument field or file name makes an assertion fail in every
run, where it reads as the agent's fault. ``referee check --workspace`` and the eval
critique both compare what the rules read (``checks.static.reads``) with what the
runs hold, and suggest the closest name the runs do have.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from referee.dsl.frozen import frozen
from referee.engine.caps import DETAIL_LIMIT, cut
from referee.dsl.errors import suggest
from referee.engine import budget
from referee.engine.checks.static import Read
from referee.engine.values import EvalError

if TYPE_CHECKING:
    from referee.engine.regexes import Pattern
    from referee.engine.run.model import JsonFile
    from referee.engine.run.workspace import Run

# Whether a tool name matches a pattern: True, False, or None when it cannot be
# told (a pattern that ran out of time).
Matcher = Callable[[str], "bool | None"]
_FILES = {"timing": "timing.json", "metrics": "metrics.json"}


@frozen
class Contents:
    """Names found in runs: tools called, top-level argument fields of their calls,
    files under outputs/, top-level fields of timing.json and metrics.json."""

    tools: frozenset[str] = frozenset()
    args: frozenset[str] = frozenset()
    files: frozenset[str] = frozenset()
    timing: frozenset[str] = frozenset()
    metrics: frozenset[str] = frozenset()

    def __or__(self, other: "Contents") -> "Contents":
        return Contents(self.tools | other.tools, self.args | other.args,
                        self.files | other.files, self.timing | other.timing,
                        self.metrics | other.metrics)


def run_contents(run: Run) -> Contents:
    """The names one run holds (reads the transcript, the output listing and the
    two JSON files; never raises on a broken file: what cannot be read is absent).
    Its calls are every call the rules see: its subagents' too (``Run.every_call``)."""
    calls = run.every_call.calls
    args = {key for call in calls if call.args is not None and isinstance(call.args.value, dict)
            for key in call.args.value}
    return Contents(frozenset(c.tool for c in calls if c.tool), frozenset(args),
                    frozenset(run.output_files()), _keys(run.timing), _keys(run.metrics))


def merged(contents: Iterable[Contents]) -> Contents:
    total = Contents()
    for one in contents:
        total = total | one
    return total


def _keys(found: JsonFile | None) -> frozenset[str]:
    value = getattr(found, "value", None)
    return frozenset(value) if isinstance(value, dict) else frozenset()


@frozen
class Unseen:
    """A read that no run has: what to say, and the closest name the runs have."""

    read: Read
    message: str
    hint: str | None = None


def unseen(read: Read, contents: Contents, matcher: Matcher | None = None) -> Unseen | None:
    """The finding for ``read`` when no run in ``contents`` has it, else None.

    ``matcher`` decides tool names (the compiled pattern of the rule); without one
    a tool read is not judged."""
    if read.kind == "tool":
        return _tool(read, contents, matcher)
    if read.kind == "arg":
        if read.name in contents.args:
            return None
        return Unseen(read, f"no call in any run has the argument field '{read.name}'",
                      _hint(read.name, contents.args))
    if read.kind == "file":
        if read.name in contents.files:
            return None
        return Unseen(read, f"no run has the file outputs/{read.name}",
                      _hint(read.name, contents.files))
    names = getattr(contents, read.kind)
    if read.name in names:
        return None
    where = _FILES[read.kind]
    if not names:
        # missing, {} or no JSON object at all (that run warns): none has a field
        return Unseen(read, f"no run has a {where} with fields, so {read.kind}.{read.name} is never there")
    return Unseen(read, f"no run's {where} has the field '{read.name}'", _hint(read.name, names))


TOOLS_SHOWN = 20


def _tool(read: Read, contents: Contents, matcher: Matcher | None) -> Unseen | None:
    if matcher is None or any_match([matcher], sorted(contents.tools)) is not False:
        return None
    shown = _pattern_text(read)
    called = ", ".join(cut(tool, DETAIL_LIMIT) for tool in sorted(contents.tools)[:TOOLS_SHOWN]) or "none"
    if len(contents.tools) > TOOLS_SHOWN:
        called += f" and {len(contents.tools) - TOOLS_SHOWN} more"
    return Unseen(read, f"no run called a tool matching {shown} (tools called: {called})",
                  tool_hint(read.name, contents.tools))


def _pattern_text(read: Read) -> str:
    pattern = read.pattern
    if pattern is None or pattern.kind == "exact":
        return f'"{read.name}"'
    if pattern.kind == "glob":
        return f'glob "{read.name}"'
    return f"/{read.name}/{pattern.flags}"


def _hint(name: str, candidates: Iterable[str]) -> str | None:
    best = suggest(name, candidates)
    return f"did you mean '{best}'?" if best else None


def tool_hint(name: str, tools: Iterable[str]) -> str | None:
    """Tool names often carry a server prefix (``mcp__erp__saveDoc``): compare the
    pattern's words with the names and with their last part."""
    word = name.strip("*?^$/\\.")
    by_tail: dict[str, str] = {}
    for tool in sorted(tools):
        by_tail.setdefault(tool, tool)
        by_tail.setdefault(tool.rsplit("__", 1)[-1], tool)
    best = suggest(word, by_tail)
    return f"did you mean '{by_tail[best]}'?" if best else None


def pattern_matcher(pattern: Pattern) -> Matcher:
    """A ``Matcher`` over a compiled ``regexes.Pattern`` (the one the rule's
    selection uses); a match that ends in an error (``regexes.Pattern``) answers None."""
    test = pattern.tester("a tool name")

    def matches(name: str) -> bool | None:
        try:
            return bool(test(name))
        except (EvalError, budget.BudgetExceeded):
            return None

    return matches


def any_match(matchers: Iterable[Matcher], names: Iterable[str]) -> bool | None:
    """Whether some matcher matches some name; None when that cannot be told.

    All the matches share one budget of counted work, as an assertion's do."""
    tests = list(matchers)
    with budget.active(budget.Limits()):
        for name in names:
            for test in tests:
                answer = test(name)
                if answer is None or answer:
                    return answer
    return False
