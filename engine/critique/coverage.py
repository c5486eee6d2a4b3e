"""What the assertions leave unwatched: expectations with no check, tools no assertion
looks at, and assertions that give the same verdict in every configuration."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from referee.engine.compile import CompiledEval
from referee.engine.regexes import name_matcher


@dataclass
class EvalCoverage:
    eval_key: str
    no_check: list[int] = field(default_factory=list)  # evals.json indexes left to the grader
    no_rule: list[int] = field(default_factory=list)  # evals.json indexes with no expect at all
    unwatched_tools: list[str] = field(default_factory=list)
    same_everywhere: list[tuple[str, str]] = field(default_factory=list)  # (assertion key, outcome)


def eval_coverage(ev: CompiledEval, expectations: int, tools: Iterable[str],
                  outcomes: Mapping[str, Mapping[str, set[str]]]) -> EvalCoverage:
    """``outcomes`` is ``{assertion key: {configuration: {outcome, ...}}}`` over the eval's runs."""
    found = EvalCoverage(ev.key)
    indexed = {a.index: a for a in ev.assertions if a.index is not None}
    for number in range(1, expectations + 1):
        if number not in indexed:
            found.no_rule.append(number)
        elif indexed[number].check is None:
            found.no_check.append(number)
    found.unwatched_tools = _unwatched(ev, sorted(set(tools)))
    for assertion in ev.assertions:
        by_config = outcomes.get(assertion.key, {})
        seen = {frozenset(v) for v in by_config.values()}
        if len(by_config) >= 2 and len(seen) == 1:
            (only,) = seen
            if len(only) == 1 and "not_graded" not in only:
                found.same_everywhere.append((assertion.key, next(iter(only))))
    return found


def _unwatched(ev: CompiledEval, tools: list[str]) -> list[str]:
    """Tools called in the runs that no assertion of the eval selects by name."""
    if any(a.check is not None and not a.tool_patterns and "calls" in (a.check_source or "")
           for a in ev.assertions):
        return []  # an assertion over every call (``no calls with status error``) watches them all
    matchers = [name_matcher(p.kind, p.text, p.flags) for a in ev.assertions for p in a.tool_patterns]
    return [tool for tool in tools if not any(m(tool) for m in matchers)]
