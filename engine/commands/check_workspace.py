"""``referee check --workspace``: what the rules read that no run of their eval has.

The rules are compiled together (as ``grade`` would), the workspace's runs are
found and assigned to their evals, and every tool pattern, argument field, file
and timing/metrics field a let or a check names is looked up in what those runs
hold. Tool names are matched with the compiled patterns the checks themselves use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.dsl.errors import Diagnostic, unique
from referee.engine.checks.static import reads
from referee.engine.facts.contents import (Contents, Unseen, merged, pattern_matcher, run_contents,
                                           unseen)
from referee.engine.usage import UsageError

_CODES = {"tool": "unseen-tool", "arg": "unseen-field", "timing": "unseen-field",
          "metrics": "unseen-field", "file": "unseen-file"}


def workspace_warnings(trees: list, evals: Any, workspace: Path) -> list[Diagnostic]:
    """A warning per read no run of its eval has, in file order. Raises
    ``RulesError`` when the files do not compile together, ``UsageError`` when the
    workspace holds no run."""
    from referee.engine.compile import compile_rules, statements
    from referee.engine.run.workspace import discover

    program = compile_rules(trees, evals)
    found = discover(workspace)
    if not found.runs:
        why = f": {found.problems[0].message}" if found.problems else ""
        raise UsageError(f"no runs found under {workspace}{why}")
    held: dict[str, list[Contents]] = {}
    for one in found.runs:
        compiled = program.for_run(one.id, one.metadata)
        if compiled is not None:
            held.setdefault(compiled.key, []).append(run_contents(one))
            one.release()
    matchers = _matchers(program)
    warnings = []
    for key, nodes in statements(trees, evals).items():
        if key not in held:
            continue
        contents = merged(held[key])
        runs = len(held[key])
        for path, node in nodes:
            for read in reads(node):
                matcher = matchers.get(_key(read.pattern)) if read.pattern else None
                finding = unseen(read, contents, matcher)
                if finding is not None:
                    warnings.append(_warning(finding, path, key, runs))
    return unique(warnings)


def _matchers(program: Any) -> dict:
    """Tool-name matchers by pattern, over the compiled patterns of the program."""
    out: dict[tuple[str, str, str], Any] = {}
    for ev in program.evals:
        for assertion in ev.assertions:
            for pattern, compiled in zip(assertion.tool_patterns, assertion.tool_matchers):
                if compiled is not None:
                    out.setdefault(_key(pattern), pattern_matcher(compiled))
    return out


def _key(pattern: Any) -> tuple[str, str, str]:
    return (pattern.kind, pattern.text, pattern.flags)


def _warning(finding: Unseen, path: str, key: str, runs: int) -> Diagnostic:
    span = finding.read.span
    end = span.caret_end()
    where = f" (eval {key}, {runs} run{'s' if runs != 1 else ''})"
    hint = None if finding.hint is None else _shown(finding.hint)
    return Diagnostic(_CODES[finding.read.kind], _shown(finding.message + where), path, span.line,
                      span.column, end, hint, severity="warning")


def _shown(text: str) -> str:
    """A warning's text, which names what the runs hold (the tools they called, their
    argument fields), made inert and kept on its line, as grade prints such names: an
    escape sequence would drive the terminal, and a line break start a line that a CI
    runner reads as a workflow command."""
    from referee.engine.report.inert import inert

    return inert(text).replace("\n", "\\n")

