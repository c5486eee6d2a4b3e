"""What ``referee report`` reads: the grading.json of each run, and benchmark.json
(read and checked in ``engine.report.benchmark_file``).

Every format (HTML, JUnit, GitHub, Markdown) renders one ``Collection``, built
here once: the runs graded under a folder (at any level of a workspace), each
with the source lines its evidence points at, and the workspace's
``benchmark.json`` when there is one. Paths shown to people are the folder as the
user gave it (relative, never made absolute) joined with the run's place under
it, so the same workspace at two places renders the same bytes.

With a primary configuration known (``--primary``, or the one ``referee aggregate``
chose, from benchmark.json), the runs of the other configurations are context: a
baseline that fails by design is shown as such, never as a failure of the gate.
"""

from __future__ import annotations

import math
import os
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from pydantic import ValidationError

from referee.dsl.frozen import frozen
from referee.engine.decision.provenance import (graded_by, inputs_of, judges_mix, judges_of, rules_mix,
                                                 rules_of, versions_mix)
from referee.engine.decision.recount import Item, disagreements
from referee.engine.decision.shape import grading_shape, shape_problem
from referee.engine.report import benchmark_file, roles
from referee.engine.report.benchmark_file import BENCHMARK
from referee.engine.report.benchmark_remade import not_made_from_grades
from referee.engine.report.build import gate_status
from referee.engine.report.cited import cited_lines
from referee.engine.report.freshness import copied_grade, copied_iterations, copied_runs, stale_grade
from referee.engine.report.models import Expectation, GradingReport
from referee.engine.report.marker import GRADING
from referee.engine.report.run_report import Unread, read_report
from referee.engine.report.ungraded import should_be_graded
from referee.engine.run.select import Selection, shared_ids
from referee.engine.run.workspace import Run, discover

if TYPE_CHECKING:
    from referee.engine.run.discovery import Discovery



@frozen
class GradedRun:
    """One run's grading.json, with the text of each line its evidence cites.

    ``role`` is "primary", "baseline" or "context" (another configuration) when a
    primary is known, else "" (every run counts)."""

    folder: str  # the run folder as shown to people (the user's folder argument + rel)
    report: GradingReport
    lines: tuple[tuple[str, int, str], ...] = ()  # (file, line, text), file relative to the run
    path: Path | None = None  # the run folder on disk (never shown: it may be absolute)
    role: str = ""

    @property
    def counts(self) -> bool:
        """Whether the gate counts this run: a run of the primary, or any run when none is known."""
        return self.role in ("", "primary")

    @property
    def info(self):
        return self.report.run

    @property
    def status(self) -> str:
        """PASS, FAIL, or EMPTY when nothing counted toward the gate."""
        return gate_status(self.report.gate.passed, self.report.gate.total)

    def source_line(self, file: str | None, line: int | None) -> str | None:
        for known_file, known_line, text in self.lines:
            if known_file == file and known_line == line:
                return text
        return None

    def cited(self, item: Expectation) -> list[tuple[str, int, str]]:
        """The distinct (file, line, text) the item's evidence points at, in its order."""
        seen: set[tuple[str, int]] = set()
        out: list[tuple[str, int, str]] = []
        for place in item.evidence_location:
            if place.file is None or place.line is None:  # no line of a file: nothing to quote
                continue
            text = self.source_line(place.file, place.line)
            key = (place.file, place.line)
            if text is not None and key not in seen:
                seen.add(key)
                out.append((place.file, place.line, text))
        return out


@frozen
class ConfigRow:
    """One configuration's totals over the runs shown."""

    name: str
    role: str
    runs: int
    runs_passed: int
    gate_passed: int
    gate_total: int
    passed: int
    total: int
    not_graded: int
    mean_pass_rate: float | None  # over the runs that graded something; None when none did


@frozen
class Collection:
    """Everything a report format renders."""

    root: str
    runs: tuple[GradedRun, ...]
    benchmark: dict[str, Any] | None = None
    problems: tuple[str, ...] = field(default=())
    primary: str | None = None
    baseline: str | None = None
    # Runs shown by the selection whose grading.json is there but cannot be read
    # (broken, not referee's, not a regular file), or is gone from a run that was
    # graded (``_should_be_graded``): (folder, configuration).
    unread: tuple[tuple[str, str], ...] = ()

    @property
    def decision(self) -> str:
        """The release decision of benchmark.json (``referee aggregate``) when there is
        one; else PASS when every gated assertion of every run the gate counts passed
        (and some counted): the primary's runs when one is known, else every run, the
        same rule as ``referee grade``'s exit code (with ``--primary``). A run the gate
        counts whose grading.json cannot be read may have failed: never a PASS."""
        release = self.release
        if release is not None:
            return release["decision"]
        counted = self.counted()
        total = sum(r.report.gate.total for r in counted)
        passed = sum(r.report.gate.passed for r in counted)
        return "PASS" if total and passed == total and not self.unread_counted() else "FAIL"

    def unread_counted(self) -> list[str]:
        """The folders of the runs the gate counts whose grading.json could not be read."""
        return [folder for folder, config in self.unread if self.primary is None or config == self.primary]

    def counted(self) -> list[GradedRun]:
        """The runs the gate counts (``GradedRun.counts``)."""
        return [r for r in self.runs if r.counts]

    def context(self) -> list[GradedRun]:
        """The runs shown as context: other configurations than a known primary."""
        return [r for r in self.runs if not r.counts]

    @property
    def release(self) -> dict[str, Any] | None:
        """benchmark.json's ``release`` block, when it has a decision."""
        release = (self.benchmark or {}).get("release")
        if isinstance(release, dict) and isinstance(release.get("decision"), str) and release["decision"]:
            return release
        return None

    def configurations(self) -> list[ConfigRow]:
        order: dict[str, list[GradedRun]] = {}
        for run in self.runs:
            order.setdefault(run.info.configuration, []).append(run)
        rank = {"primary": 0, "baseline": 1}  # the primary first, then its baseline, then as found
        return sorted((_config_row(name, runs) for name, runs in order.items()),
                      key=lambda row: rank.get(row.role, 2))

    def evals(self) -> list[tuple[str, str | None, list[GradedRun]]]:
        """(eval id, eval name, runs) in the order the runs were found."""
        found: dict[str, list[GradedRun]] = {}
        for run in self.runs:
            found.setdefault(run.info.eval_id, []).append(run)
        return [(eval_id, runs[0].info.eval_name, runs) for eval_id, runs in found.items()]


class NothingToReport(ValueError):
    """No graded run under the folder (after the selection): the message says why."""


def _refuse_unread_runs(found: Discovery) -> None:
    """A folder ``grade`` refuses has nothing to report (``discovery.refusal``)."""
    from referee.engine.run.discovery import refusal

    why = refusal(found)
    if why is not None:
        raise NothingToReport(why)


class NotTrusted(ValueError):
    """What would be shown cannot be trusted: a grading.json whose counts disagree
    with its expectations or that is older than its run, a benchmark.json older
    than the grades. The message names it and says what to do; nothing is rendered."""


def collect(folder: Path, selection: Selection = Selection(), primary: str | None = None,
            baseline: str | None = None, with_benchmark: bool = True) -> Collection:
    """Read every run's grading.json under ``folder`` (a workspace, an iteration, an
    eval, a configuration or a run folder), keep those ``selection`` matches, and
    the folder's benchmark.json unless ``with_benchmark`` is false (for readers of
    the runs alone, which a benchmark they never show must not stop).

    Runs with no grading.json, or one that is not referee's, become problems;
    raises ``NothingToReport`` when no run is left (or ``primary``/``baseline`` name
    no configuration shown), and ``NotTrusted`` when what would be shown is forged
    or stale. Without ``primary``, benchmark.json's primary and baseline (the roles
    ``aggregate`` chose) are taken when it is read.
    """
    root = display_path(folder)
    found = discover(folder)
    _refuse_unread_runs(found)
    problems = [str(p) for p in found.problems]
    runs, unread, missing, graded_evals = [], [], [], set()
    origins: list[tuple[str, int | None, str | None, str | None]] = []  # for ``copied_runs``
    places, at = [], []  # every run's iteration and place; each graded run's, and the place it records
    for run in found.runs:
        places.append((run.id.iteration, run.id.rel))
        graded = _read_run(run.path, _join(root, run.id.rel), problems)
        if isinstance(graded, GradedRun):
            graded = _at_its_place(graded, run)
        if graded is None:
            missing.append(run)
            continue
        graded_evals.add((run.id.iteration, run.id.eval_id))
        if isinstance(graded, Unreadable):
            if selection.matches_id(run.id):
                unread.append((graded.folder, run.id.configuration))
        elif selection.matches(graded.info.eval_id, graded.info.eval_name, graded.info.configuration,
                               graded.info.run_number, run.id.extra.get("eval_folder")):
            _require_trusted(graded, run)
            runs.append(graded)
            origins.append((graded.folder, run.id.iteration, graded.info.path, graded.info.files_digest))
            at.append((run.id.iteration, run.id.rel, graded.info.path))
    for run in missing:
        shown, graded_why = _join(root, run.id.rel), should_be_graded(run, graded_evals)
        if graded_why is None:
            problems.append(f"{shown}: no {GRADING}; run `referee grade` first (left out)")
        elif selection.matches_id(run.id):
            problems.append(f"{shown}: no {GRADING}, though {graded_why}: its verdicts are unknown; grade the "
                            "run again (counted as not read)")
            unread.append((shown, run.id.configuration))
    # A run folder that cannot be read (no outputs/) is a run whose verdicts are unknown:
    # the discovery's warning says so, and the gate counts it as not read.
    unread += [(_join(root, rid.rel), rid.configuration) for rid in found.unread if selection.matches_id(rid)]
    copies = copied_iterations(at, places)
    problems += [f"{runs[index].folder}: {copied_grade(origin)} (left out)" for index, origin in copies.items()]
    runs = [run for index, run in enumerate(runs) if index not in copies]
    origins = [origin for index, origin in enumerate(origins) if index not in copies]
    if not runs:
        raise NothingToReport(_nothing_message(folder, found.runs, selection))
    copied = copied_runs(origins)
    _require(f"{copied}. Nothing was reported" if copied else None)
    problems += [f"graded by different rules: {line}" for line in rules_mix(
        [(r.folder, r.info.eval_id, graded_by(rules_of(e.rules_location for e in r.report.expectations),
                                              inputs_of(r.info.eval_id, r.report.run.inputs))) for r in runs])]
    problems += [f"judged by different LLM graders: {line}" for line in judges_mix(
        [(r.folder, r.info.eval_id, judges_of(r.report.grader.llm, ((e.method, e.judged_by)
                                                                    for e in r.report.expectations)))
         for r in runs])]
    problems += [f"graded by different referee versions: {line}"
                 for line in versions_mix([(r.folder, r.report.grader.version) for r in runs])]
    benchmark = (benchmark_file.read_benchmark(folder, display_path(folder / BENCHMARK))
                 if selection.empty and with_benchmark else None)
    if isinstance(benchmark, str):
        raise NotTrusted(benchmark)
    if benchmark is not None:
        _require(benchmark_file.stale(benchmark, found.runs, folder, problems))
        _require(benchmark_file.unknown_decision(benchmark, folder))
        _require(benchmark_file.not_decided_by_reasons(benchmark, folder))
        _require(not_made_from_grades(benchmark, found.runs, folder))
        _require(benchmark_file.release_gone(benchmark, folder))
        benchmark = benchmark_file.other_iterations(benchmark, found.runs, problems)
    if with_benchmark and benchmark is None and not selection.empty and (folder / BENCHMARK).is_file():
        problems.append(f"{BENCHMARK} left out: it covers every run, not {selection.describe()}")
    benchmark = roles.decided_with(benchmark, primary, baseline, problems)
    try:
        primary, baseline = roles.chosen(sorted({r.info.configuration for r in runs}), primary, baseline, benchmark)
    except roles.UnknownRole as exc:
        raise NothingToReport(str(exc)) from None
    runs = [replace(r, role=roles.role(r.info.configuration, primary, baseline)) for r in runs]
    return Collection(root, tuple(runs), benchmark, tuple(problems), primary, baseline, tuple(unread))


def display_path(folder: Path) -> str:
    """The folder as reports show it: relative as given (so GitHub annotations name
    files from where the command ran), or, given absolute, its name alone. Never an
    absolute path, and never a function of the current directory: the same argument
    gives the same bytes from anywhere."""
    if not folder.is_absolute():
        return Path(os.path.normpath(folder)).as_posix()
    return folder.name


@frozen
class Unreadable:
    """A run whose grading.json is there but cannot be read: graded, with verdicts unknown."""

    folder: str


def _read_run(run_dir: Path, shown: str, problems: list[str]) -> GradedRun | Unreadable | None:
    """The run's report; None when it has no grading.json (the caller tells a run
    ``grade`` left out from one whose report is gone), ``Unreadable`` when it has one
    that cannot be read."""
    document = read_report(run_dir)
    if isinstance(document, Unread) and document.code == "missing":
        return None
    if isinstance(document, Unread) and document.code == "not-a-file":
        problems.append(f"{shown}/{GRADING}: {document.not_a_file()}; grade the run again (left out)")
        return Unreadable(shown)
    try:
        if isinstance(document, Unread):
            raise ValueError(document.message)
        # the model's shape, judged and said as every reader of grading.json does
        # (``decision.shape``); then strictly, as the model holds it: unknown fields too
        wrong = shape_problem(document, grading_shape("report"))
        if wrong is not None:
            raise ValueError(wrong)
        report = GradingReport.model_validate(document, strict=True)
    except (ValidationError, ValueError) as exc:
        first = _first_problem(exc)
        problems.append(f"{shown}/{GRADING}: not a grading.json that referee wrote ({first}); "
                        "grade the run again (left out)")
        return Unreadable(shown)
    return GradedRun(shown, report, cited_lines(run_dir, report), run_dir)


def _first_problem(exc: ValueError) -> str:
    """The first thing wrong, by the field it is in: pydantic's own first line
    ("1 validation error for GradingReport") names no field of the file."""
    if isinstance(exc, ValidationError) and exc.errors():
        error = exc.errors()[0]
        place = ".".join(str(part) for part in error.get("loc", ())) or "the document"
        return f"{place}: {error.get('msg', 'not as referee writes it')}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _require(wrong: str | None) -> None:
    """Refuse to report what a check of benchmark.json found wrong (``benchmark_file``)."""
    if wrong is not None:
        raise NotTrusted(wrong)


def _require_trusted(graded: GradedRun, run: Run) -> None:
    """Every count shown is the one its expectations give (``engine.decision.recount``),
    and the run's files are the ones it graded (``engine.report.freshness``)."""
    report = graded.report
    items = [Item(e.key, e.outcome, e.passed, e.precision, e.gated) for e in report.expectations]
    forged = disagreements(items, report.summary.model_dump(), report.gate.model_dump())
    if forged:
        raise NotTrusted(f"{graded.folder}/{GRADING}: its counts disagree with its expectations "
                         f"({'; '.join(forged[:3])}): it was changed after referee wrote it; grade the "
                         "run again. Nothing was reported")
    if stale_grade(graded.info.files_digest, run):
        raise NotTrusted(f"{graded.folder}/{GRADING} is older than the run: its files changed since it was "
                         "graded (imported or edited again); grade the run again. Nothing was reported")


def _at_its_place(graded: GradedRun, run: Run) -> GradedRun:
    """The run named by its place in the workspace (eval, configuration, run number), as
    ``aggregate`` and ``compare`` name it, never by what its grading.json says: a file
    edited to name the baseline would otherwise count a failing primary run as the
    baseline's, and a configuration folder renamed since the grade would be shown by
    its old name in ``report`` and its new one in ``aggregate``."""
    info = graded.report.run
    placed = info.model_copy(update={"eval_id": run.id.eval_id, "eval_name": run.id.eval_name,
                                     "configuration": run.id.configuration, "run_number": run.id.run_number})
    return replace(graded, report=graded.report.model_copy(update={"run": placed}))


def _config_row(name: str, runs: list[GradedRun]) -> ConfigRow:
    # A run that graded nothing has no pass rate (its summary writes 0.0): left out, never
    # a 0 % that pulls the mean down. Exact rates, summed in one order, as aggregate does.
    rates = sorted(r.report.summary.passed / r.report.summary.total for r in runs if r.report.summary.total)
    return ConfigRow(
        name=name, role=runs[0].role, runs=len(runs), runs_passed=sum(1 for r in runs if r.status == "PASS"),
        gate_passed=sum(r.report.gate.passed for r in runs), gate_total=sum(r.report.gate.total for r in runs),
        passed=sum(r.report.summary.passed for r in runs), total=sum(r.report.summary.total for r in runs),
        not_graded=sum(r.report.summary.not_graded for r in runs),
        mean_pass_rate=round(math.fsum(rates) / len(rates), 4) if rates else None)


def _join(root: str, rel: str) -> str:
    if rel in ("", "."):
        return root
    return rel if root in ("", ".") else f"{root}/{rel}"


def _nothing_message(folder: Path, runs: Sequence, selection: Selection) -> str:
    if not runs:
        return f"no runs found under {folder} (a run is a folder holding outputs/)"
    if not selection.empty:
        return (f"no graded run under {folder} matches {selection.describe()}"
                + shared_ids(selection, (run.id for run in runs)))
    return f"no run under {folder} has a grading.json yet; run `referee grade` first"
