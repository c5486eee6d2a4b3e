"""Critique a whole workspace: compile the rules, walk the runs, gather the coverage.

The critique has a budget of counted work (``DEFAULT_BUDGET`` units, ``referee
critique --budget``): each mutant graded costs what rewriting and reading its
run costs (``assess.work_units``: one unit per call, per note and per 1,000
characters). A critique that would spend more stops with a clear error and
writes nothing: the same workspace and rules stop at the same place on any
machine.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from referee.dsl.named_file import read_named_text
from referee.engine import budget
from referee.engine.critique.assess import Critique, critique_run
from referee.engine.critique.coverage import EvalCoverage, eval_coverage
from referee.engine.critique.findings import rules_digest
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.dsl.evals_json import EvalsFile
    from referee.engine.compile import Program
    from referee.engine.run.workspace import Run


@dataclass
class Result:
    critiques: list[Critique]  # in the rules' order
    coverage: list[EvalCoverage]  # per eval
    runs: int  # runs examined
    digest: str  # of the rules critiqued (``findings.rules_digest``)


# About a minute of work on one core: a 100,000-call run is past it with its first mutants.
DEFAULT_BUDGET = 500_000


def critique_workspace(workspace: Path, rules: list[str], evals_path: str | None,
                       units: int = DEFAULT_BUDGET, response: str | None = None) -> Result:
    """Critique every run of ``workspace`` that an eval of the rules matches, within
    ``units`` of work (see above); raises ``UsageError`` past them. ``response`` names
    the file the harness delivered as the answer, relative to each run folder (as
    ``grade --response`` does)."""
    if not workspace.is_dir():
        raise UsageError(f"workspace not found: {workspace}")
    runs, (program, lets_text, evals, digest) = _runs_and_rules(workspace, rules, evals_path, response)
    found: dict[str, Critique] = {}
    try:
        with budget.active(budget.Limits(steps=units)):
            return _critique(workspace, runs, program, lets_text, evals, digest, found)
    except budget.BudgetExceeded:
        mutants = sum(len(c.tried) for c in found.values())
        raise UsageError(f"critique stopped: the mutants would spend more than its budget of "
                         f"{units:,} units of work ({mutants:,} were graded; a mutant costs one unit "
                         "per call and per note of its run, and per 1,000 characters); nothing was "
                         "written. Critique fewer runs (a folder of the workspace) or give a larger "
                         "--budget") from None


def _critique(workspace: Path, runs: Sequence[Run], program: Program, lets_text: dict[str, str],
              evals: EvalsFile | None, digest: str, found: dict[str, Critique]) -> Result:
    tools: dict[str, set[str]] = defaultdict(set)
    outcomes: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    examined = 0
    for run in runs:
        ev = program.for_run(run.id, run.metadata)
        if ev is None:
            continue
        examined += 1
        verdicts = critique_run(ev, run, lets_text, found)
        tools[ev.key].update(c.tool for c in run.every_call.calls if c.tool)  # the subagents' too
        for assertion, verdict in zip(ev.assertions, verdicts):
            outcomes[assertion.key][run.id.configuration].add(verdict.outcome.value)
        run.release()
    if not examined:
        raise UsageError(f"no run under {workspace} matches an eval of the rules")
    ordered = [found[a.key] for ev in program.evals for a in ev.assertions if a.key in found]
    coverage = [eval_coverage(ev, _expectations(evals, ev.key), tools[ev.key], outcomes)
                for ev in program.evals]
    return Result(ordered, coverage, examined, digest)


def _runs_and_rules(workspace: Path, rules: list[str], evals_path: str | None, response: str | None):
    """The runs of ``workspace`` (the response read as ``--response`` and evals.json's
    ``response_file`` name it) and the compiled rules, from one discovery. Without
    evals.json the evals' sentences are those of their runs' eval_metadata.json, as
    ``grade`` takes them, so ``expect N`` means the same sentence to both; with it,
    evals.json is checked (compiled) before it is read for ``response_file``."""
    from referee.engine.run.reading import response_files
    from referee.engine.run.workspace import discover

    if evals_path is None:
        found = discover(workspace, response_files(response))
        return found.runs, _compile(rules, None, tuple(found.expectations))
    compiled = _compile(rules, evals_path)
    return discover(workspace, response_files(response, evals_path)).runs, compiled


def _compile(rules: list[str], evals_path: str | None, sentences: tuple = ()):
    from referee import dsl
    from referee.dsl.format import format_let_value
    from referee.engine.compile import compile_rules
    from referee.engine.rules_files import read_rules_files
    from referee.engine.run.metadata_evals import evals_file

    if not rules and evals_path is None and not sentences:
        raise UsageError("nothing to critique with: give --rules FILE..., or --evals evals.json")
    files = [(Path(name).name, text) for name, text in read_rules_files(rules)]
    evals_text = _evals_text(evals_path)
    try:
        trees = [dsl.parse_rules(text, path) for path, text in files]
        evals = dsl.load_evals(Path(evals_path)) if evals_path is not None else \
            evals_file(sentences, trees) if sentences else None
        program = compile_rules(trees, evals)
    except dsl.RulesError as exc:
        shown = "\n".join(dsl.render(d) for d in exc.diagnostics)
        raise UsageError(f"{dsl.errors.erring_files(exc.diagnostics)}; run `referee check` for details\n{shown}") from None
    lets: dict[str, str] = {}
    for tree in trees:
        for block in tree.evals:
            for let in block.lets:
                lets[let.name] = f"{lets.get(let.name, '')} {format_let_value(let)}".strip()
    return program, lets, evals, rules_digest(tuple(files), evals_text)


def _evals_text(evals_path: str | None) -> str | None:
    if evals_path is None:
        return None
    try:
        return read_named_text(evals_path)
    except (OSError, UnicodeDecodeError):
        return None  # compiling reports it


def _expectations(evals: EvalsFile | None, key: str) -> int:
    if evals is None:
        return 0
    entry = evals.find(key)
    return len(entry.expectations) if entry is not None else 0
