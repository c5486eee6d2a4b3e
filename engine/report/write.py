"""Put reports on disk without losing anything that was there.

A grading.json or ground_truth.json that referee did not write (it lacks the
``grader.name == "referee"`` marker, or is not JSON at all) belongs to someone
else: without ``force`` the run is refused and nothing of it is written; with
``force`` the old file is first renamed to ``<name>.bak`` (or ``.bak.1``, ...).

A run's two files are replaced together (``atomic.replace_together``): a reader
never finds a grading.json of one grade beside a ground_truth.json of another.
A run whose files cannot be written (disk full, read-only folder) keeps its old
files and says why in ``WriteResult.error``; the other runs are still written.
Temporary files an interrupted grade left in a run folder are removed first.

Ctrl-C while writing (under ``ctrl_c_sets``) stops starting new runs and lets
the runs being written finish (each is a few renames); with several processes,
the groups of runs already handed out finish. Every run's result says what
happened, so the caller can tell exactly which runs were written.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from referee.engine.report.atomic import move_aside, remove_stale, replace_together
from referee.engine.report.lock import WorkspaceBusy, workspace_lock
from referee.engine.report.marker import GRADING, GROUND_TRUTH
from referee.engine.report.run_report import read_report
# fsync waits on the disk: a few threads overlap those waits. (Where the file system
# spends CPU time instead, only more processes help: see write_all.)
WRITER_THREADS = 8


@dataclass(slots=True)  # one per run, held to the end: no __dict__, and no empty lists
class WriteResult:
    """What happened to one run's files. ``refused`` names the foreign files;
    ``error`` says why the run could not be written (its old files were kept);
    ``interrupted`` marks a run not started because of Ctrl-C (old files kept)."""

    written: bool = False
    refused: tuple[str, ...] = ()
    kept_aside: tuple[tuple[str, str], ...] = ()  # (file, backup)
    error: str = ""
    interrupted: bool = False


class WriteInterrupted(Exception):
    """Ctrl-C during the write phase; ``results`` holds every run's outcome, in order."""

    def __init__(self, results: list[WriteResult]):
        super().__init__("interrupted while writing")
        self.results = results


def written_by_referee(path: Path) -> bool:
    """True when ``path`` is a report file with referee's marker (``run_report.read_report``)."""
    return isinstance(read_report(path.parent, path.name), dict)


def foreign_files(run_dir: Path) -> list[str]:
    """The report files in ``run_dir`` that referee may not overwrite on its own:
    anything in their place that is not a report referee wrote (a symlink, a FIFO,
    another program's file)."""
    return [name for name in (GRADING, GROUND_TRUTH)
            if (run_dir / name).is_symlink() or ((run_dir / name).exists() and not written_by_referee(run_dir / name))]


def write_run(run_dir: Path, files: Mapping[str, str], force: bool) -> WriteResult:
    """Write ``{name: text}`` into ``run_dir`` together, guarding files referee did not
    write; never raises for what the file system refuses (see ``WriteResult.error``)."""
    try:
        # Graders of overlapping folders (a workspace, one of its iterations) hold
        # different workspace locks: the run's own lock keeps its pair from mixing.
        with workspace_lock(run_dir):
            return _write_unlocked(run_dir, files, force)
    except WorkspaceBusy:
        return WriteResult(error="cannot write: another referee is writing this run folder")


def _write_unlocked(run_dir: Path, files: Mapping[str, str], force: bool) -> WriteResult:
    result = WriteResult()
    try:
        remove_stale(run_dir, files)
        foreign = foreign_files(run_dir)
        if foreign and not force:
            result.refused = tuple(foreign)
            return result
        for name in foreign:
            backup = move_aside(run_dir / name)
            result.kept_aside += ((name, backup.name),)
        replace_together({run_dir / name: text for name, text in files.items()})
        result.written = True
    except OSError as exc:
        result.error = f"cannot write: {exc.strerror or exc}"
    return result


def write_all(jobs: Sequence[tuple[Path, Mapping[str, str]]], force: bool,
              stop: threading.Event | None = None, processes: int = 1) -> list[WriteResult]:
    """``write_run`` for many runs, results in the order given.

    Once ``stop`` is set (by ``ctrl_c_sets``, say), no new run is started: the
    runs being written finish, so no run is left with one new file and one old,
    and the others come back with ``interrupted``. Each thread files its own
    run's result, so every result says what happened on disk.

    With ``processes`` above 1 the runs are shared out, a group of runs at a time,
    among that many processes, this one included. Writing a file costs the system
    CPU time as well as waiting on the disk (an fsync and a few renames), and the
    threads of one process do not overlap that time on every file system. Groups
    already handed out when ``stop`` is set are written whole: a few runs more.
    """
    if not jobs:
        return []
    stop = stop or threading.Event()
    if processes > 1 and len(jobs) > WRITER_THREADS:
        return _write_in_processes(jobs, force, stop, processes)
    results: list[WriteResult | None] = [None] * len(jobs)

    def job(index: int) -> None:
        if stop.is_set():
            results[index] = WriteResult(interrupted=True)
            return
        try:
            results[index] = write_run(jobs[index][0], jobs[index][1], force)
        except Exception as exc:  # a defect in one run's writing costs that run only
            results[index] = WriteResult(error=f"cannot write: {type(exc).__name__}: {exc}")

    # Each thread takes the next run when it is free: no queue of a task per run
    # (a future and its lock each) grows with the workspace.
    pending = iter(range(len(jobs)))
    taking = threading.Lock()

    def writer() -> None:
        while True:
            with taking:
                index = next(pending, None)
            if index is None:
                return
            job(index)

    threads = [threading.Thread(target=writer, name=f"referee-writer-{n}")
               for n in range(min(WRITER_THREADS, len(jobs)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [r or WriteResult(interrupted=True) for r in results]


def _write_in_processes(jobs: Sequence[tuple[Path, Mapping[str, str]]], force: bool,
                        stop: threading.Event, processes: int) -> list[WriteResult]:
    from referee.engine.pool import ignore_ctrl_c, in_order

    groups = _Groups(jobs, force)
    results: list[WriteResult] = []
    for written in in_order(_write_group, lambda group: write_all(group[0], force, stop), groups, processes,
                            None, ignore_ctrl_c, (), stop=stop, chunk=1):
        results.extend(written)
    return results + [WriteResult(interrupted=True) for _ in range(len(jobs) - len(results))]


class _Groups(Sequence):
    """``jobs`` cut into groups of ``WRITER_THREADS`` runs, each read only when the
    group is handed out. A run's files travel to a worker process as they are: a
    ``run_report.ReportFiles`` is made into text where it is written."""

    def __init__(self, jobs: Sequence[tuple[Path, Mapping[str, str]]], force: bool) -> None:
        self.jobs, self.force = jobs, force

    def __len__(self) -> int:
        return -(-len(self.jobs) // WRITER_THREADS)

    def __getitem__(self, index: int | slice):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        part = self.jobs[index * WRITER_THREADS:(index + 1) * WRITER_THREADS]
        return list(part), self.force


def _write_group(group: tuple[list[tuple[Path, Mapping[str, str]]], bool]) -> list[WriteResult]:
    """A group of runs written in a worker process (which ignores Ctrl-C: the main
    process decides when to stop handing out groups)."""
    return write_all(group[0], group[1])


@contextmanager
def ctrl_c_sets(stop: threading.Event) -> Iterator[threading.Event]:
    """Inside the ``with``, Ctrl-C sets ``stop`` instead of raising KeyboardInterrupt.

    Raising would cut short the wait for the writer threads (and a join cut
    short can let a later one return while a thread still writes). Only the
    main thread receives signals; elsewhere there is nothing to replace.
    """
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)
