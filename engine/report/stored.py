"""A graded run between grading and writing: where it goes, and where its record waits.

``engine.grade`` keeps one ``Stored`` per graded run: its place (``RunPlace``), its
eval's key and the ticket of its record in the spill. The run is read back as
data (``report``) when the terminal or ``--json`` needs it, and as its two files
(``files``) when the writer does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from referee.dsl.frozen import frozen
from referee.engine.report.brief import Brief
from referee.engine.report.run_report import ReportFiles, RunReport
from referee.engine.report.spill import InMemory, Spill, Ticket
from referee.engine.run.workspace import Run, RunList


@dataclass(frozen=True, slots=True)  # one per run, kept to the end: no __dict__
class RunPlace:
    """Where a graded run's files go, and its name in messages: all that is kept of
    its ``Run`` (discovery's objects are let go as the runs are graded).

    The run's folder is ``root`` joined with ``rel`` (``inside``), or ``root`` itself
    for a run that does not lie at its ``rel`` (one held in memory). ``root`` is one
    string shared by the runs of a workspace and ``rel`` the run id's own, so a place
    costs a few pointers, not an absolute path per run."""

    root: str
    rel: str
    inside: bool = True

    @property
    def path(self) -> Path:
        return Path(self.root, self.rel) if self.inside else Path(self.root)


def places(runs: Sequence[Run]) -> Iterator[RunPlace]:
    """The place of each run, in order; a ``RunList``'s without building its Runs."""
    if isinstance(runs, RunList):
        root = str(runs.root)
        for rel in runs.rels:
            yield RunPlace(root, rel)
        return
    roots: dict[str, str] = {}
    for run in runs:
        yield _place(run, roots)


def _place(run: Run, roots: dict[str, str]) -> RunPlace:
    directory, rel = str(run.path), run.id.rel
    root = directory if rel == "." else directory[:-len(rel) - 1]
    if rel != "." and Path(root, rel) != run.path:
        return RunPlace(directory, rel, inside=False)
    return RunPlace(roots.setdefault(root, root), rel)


@dataclass(frozen=True, slots=True)  # one per run, kept to the end: no __dict__
class Stored:
    """One graded run whose record waits in ``spill``: it is read back when asked
    for, so holding every run's ``Stored`` costs no report (its place, and its ticket)."""

    place: RunPlace
    eval_key: str
    ticket: Ticket
    spill: Spill | InMemory
    feedbacks: dict[str, dict]  # eval key -> its eval_feedback, shared by all runs

    def report(self) -> RunReport:
        """The run's grading.json, as data."""
        return RunReport.from_record(self.spill.get(self.ticket), self.feedbacks[self.eval_key])

    @property
    def files(self) -> ReportFiles:
        """``{file name: text}`` for the writer, each text made when it is asked for."""
        return ReportFiles(self.spill.get(self.ticket), self.feedbacks[self.eval_key])


@frozen
class GradedRun:
    """One run, fully graded, in memory (``grade_all``). ``run`` keeps the directory to write into."""

    run: Run
    report: RunReport

    @property
    def brief(self) -> Brief:
        return self.report.brief

    @property
    def grading(self) -> str:
        """grading.json, as written."""
        return self.report.grading_text()

    @property
    def truth(self) -> str:
        """ground_truth.json, as written."""
        return self.report.truth_text()
