"""The graded runs that ``compare``, ``analyze``, ``validate`` and ``diff`` read.

Every grading.json is read through the reader ``referee report`` uses
(``engine.report.collect``): nothing here parses one. A run's identity (eval,
configuration, run number, iteration) is discovery's, as in ``aggregate``, and
its name is its place in the workspace (``report_path``), so the same workspace
at two places reads the same. With several iterations the last one is read
unless another is asked for, as ``aggregate`` does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from referee.dsl.frozen import frozen
from referee.engine.decision.provenance import inputs_of, judges_of, rules_of
from referee.engine.run.workspace import Run, discover, natural_key, report_path
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.report.models import GradingReport

GRADED = ("pass", "fail", "error")  # outcomes that are verdicts (not_graded is none)


@frozen
class Item:
    """One expectation of one graded run."""

    key: str
    text: str
    outcome: str  # pass, fail, error, not_graded
    gated: bool  # counted toward the run's gate
    precision: str
    check: str  # the rule's text ("" for a plain sentence)
    source: str  # evidence_source
    evidence: str

    @property
    def graded(self) -> bool:
        return self.outcome in GRADED

    @property
    def passed(self) -> bool:
        return self.outcome == "pass"


@frozen
class Claim:
    """What the agent said about its work, and whether the record bears it out."""

    text: str
    kind: str  # factual, process, quality
    verified: bool
    evidence: str


@frozen
class Graded:
    """One graded run, as these commands need it."""

    path: str  # the run's place in the workspace
    eval_id: str
    eval_name: str | None
    configuration: str
    run_number: int
    items: tuple[Item, ...]
    claims: tuple[Claim, ...]
    # tool calls that ended in error (execution_metrics.errors_encountered); None where
    # grading.json gives no count (the run's calls were not all read: ``not_counted``)
    errors: int | None
    rules: tuple[str, ...]  # the rules files that graded it, ``name@digest``
    version: str  # the referee version that graded it
    source: Run = field(compare=False, repr=False)
    # the input files its rules read (``provenance.inputs_of``); None: not recorded
    inputs: tuple[str, ...] | None = ()
    judges: tuple[str, ...] = ()  # the LLM graders that gave its verdicts (``provenance.judges_of``)

    @property
    def gate(self) -> tuple[int, int]:
        """(passed, total) over the assertions the gate counts."""
        counted = [item for item in self.items if item.gated]
        return sum(item.passed for item in counted), len(counted)

    @property
    def succeeded(self) -> bool | None:
        """Every counted assertion passed; None when the gate counts nothing."""
        passed, total = self.gate
        return None if not total else passed == total

    def item(self, key: str) -> Item | None:
        return next((item for item in self.items if item.key == key), None)


@dataclass
class Loaded:
    """The runs read, in the one order of runs, and what was said on the way."""

    runs: list[Graded]
    warnings: list[str] = field(default_factory=list)
    # Runs whose grading.json is there but cannot be read: (eval id, configuration, place).
    unread: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def configurations(self) -> list[str]:
        return sorted({run.configuration for run in self.runs})

    def of(self, configuration: str) -> list[Graded]:
        return [run for run in self.runs if run.configuration == configuration]

    def unread_of(self, eval_id: str, configurations: Sequence[str]) -> list[str]:
        """The places of the eval's runs of ``configurations`` whose grading.json cannot be read."""
        return [place for e, config, place in self.unread if e == eval_id and config in configurations]

    def evals(self) -> list[tuple[str, str | None]]:
        """(eval id, eval name) in natural order of the ids."""
        found: dict[str, str | None] = {}
        for run in self.runs:
            found[run.eval_id] = found.get(run.eval_id) or run.eval_name
        return sorted(found.items(), key=lambda pair: natural_key(pair[0]))


def load(workspace: Path, iteration: int | None = None) -> Loaded:
    """The graded runs under ``workspace`` (one iteration); UsageError when none.

    A run without a usable grading.json is named in ``warnings`` and left out,
    never counted as a loss."""
    from referee.engine.report.collect import collect, display_path
    from referee.engine.report.lock import WorkspaceBusy, workspace_lock
    from referee.engine.shards.verify import require_one_grade

    if not workspace.is_dir():
        raise UsageError(f"workspace not found: {workspace}")
    try:
        # The grade's writer lock, as aggregate and report hold it: no grade writes the
        # gradings while they are read, so runs graded by old rules are never read
        # beside runs a grade running meanwhile graded by new ones.
        with workspace_lock(workspace):
            require_one_grade(workspace)  # a sharded grade is read once merged, as aggregate and report read it
            found = discover(workspace)
            runs, warnings = _one_iteration(list(found.runs), iteration)
            try:
                collection = collect(workspace, with_benchmark=False)  # benchmark.json is aggregate's
            except ValueError as exc:  # nothing graded, or a grading.json that cannot be trusted
                raise UsageError(str(exc)) from None
    except WorkspaceBusy:
        raise UsageError(f"another referee is writing reports into {workspace} (it holds the workspace's "
                         "lock); nothing was read. Run this again when it has finished") from None
    root = display_path(workspace)
    shown = {_joined(root, run.id.rel): run for run in runs}
    graded = [_graded(shown[g.folder], g.report) for g in collection.runs if g.folder in shown]
    every = {_joined(root, run.id.rel) for run in found.runs}
    warnings += [p for p in collection.problems if _about(p, every) in shown or _about(p, every) is None]
    if not graded:
        said = [p for p in warnings if _about(p, every) in shown][:3]  # why the runs read were left out
        raise UsageError(f"no graded run under {workspace}"
                         + (f" in iteration {iteration}" if iteration is not None else "")
                         + (f" ({'; '.join(said)})" if said else "") + "; run `referee grade` first")
    graded.sort(key=run_order)
    unread = sorted(((shown[folder].id.eval_id, config, report_path(shown[folder].id))
                     for folder, config in collection.unread if folder in shown),
                    key=lambda u: (natural_key(u[0]), u[1], natural_key(u[2])))
    return Loaded(graded, warnings, unread)


def run_order(run: Graded) -> tuple:
    """The one order of runs everywhere: eval, configuration, run number, path."""
    return natural_key(run.eval_id), run.configuration, run.run_number, natural_key(run.path)


def _one_iteration(runs: list[Run], wanted: int | None) -> tuple[list[Run], list[str]]:
    numbers = sorted({r.id.iteration for r in runs if r.id.iteration is not None})
    if wanted is not None:
        if wanted not in numbers:
            raise UsageError(f"--iteration {wanted}: no such iteration (found: "
                             f"{', '.join(map(str, numbers)) or 'none'})")
        return [r for r in runs if r.id.iteration == wanted], []
    if len(numbers) <= 1:
        return runs, []
    latest = numbers[-1]
    note = (f"{len(numbers)} iterations found ({', '.join(map(str, numbers))}); "
            f"reading iteration {latest} (choose with --iteration N)")
    return [r for r in runs if r.id.iteration in (latest, None)], [note]


def _joined(root: str, rel: str) -> str:
    """The run folder as ``engine.report.collect`` names it: the folder given joined with its place."""
    if rel in ("", "."):
        return root
    return rel if root in ("", ".") else f"{root}/{rel}"


def _about(problem: str, folders: set[str]) -> str | None:
    """The run folder a problem of the reader names, if it names one."""
    head = problem.split(": ")[0].removesuffix("/grading.json")
    return head if head in folders else None


def _graded(run: Run, report: GradingReport) -> Graded:
    items = tuple(Item(e.key, e.text, e.outcome, e.gated, e.precision, e.check, e.evidence_source, e.evidence)
                  for e in report.expectations)
    claims = tuple(Claim(c.claim, c.type, c.verified, c.evidence) for c in report.claims)
    errors = report.execution_metrics.get("errors_encountered")
    return Graded(
        path=report_path(run.id), eval_id=run.id.eval_id, eval_name=run.id.eval_name,
        configuration=run.id.configuration, run_number=run.id.run_number, items=items, claims=claims,
        errors=errors if isinstance(errors, int) and not isinstance(errors, bool) and errors >= 0 else None,
        rules=rules_of(e.rules_location for e in report.expectations),
        version=report.grader.version, source=run, inputs=inputs_of(run.id.eval_id, report.run.inputs),
        judges=judges_of(report.grader.llm, ((e.method, e.judged_by) for e in report.expectations)))


def outcomes_digest(runs: Iterable[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """A digest of what was graded: each run's path with its (key, outcome) pairs.

    ``compare`` and ``validate`` record it; ``aggregate`` computes it from its own
    reading of the same runs and uses their findings only while the two agree."""
    material = sorted((path, sorted(pairs)) for path, pairs in runs)
    text = json.dumps(material, ensure_ascii=False, separators=(",", ":"))
    # A path that is not UTF-8 holds a lone surrogate: encoded, not refused (as blind.py does).
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def digest_of(runs: Iterable[Graded]) -> str:
    """``outcomes_digest`` of graded runs."""
    return outcomes_digest((run.path, [(item.key, item.outcome) for item in run.items]) for run in runs)
