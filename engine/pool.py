"""Work on runs in worker processes and in this one, results in order, a few chunks
at a time.

``jobs`` processes do the work: ``jobs - 1`` workers, and this process, which takes
the next chunk itself whenever the oldest chunk out is not back yet. On a machine
with as many cores as jobs, a process that only waited would still take CPU to
receive and store the results, and so slow down the workers it waits for.

Ctrl-C reaches every process of the terminal's group: the workers are born
ignoring it (``_workers_born_deaf``, and their initializer ignores it too), and the
main process alone answers it by stopping them (``_stop``), so no worker prints a
traceback and no queued chunk is begun. A caller that must let the work out
finish (writing, where a run cut short would mix old and new files) passes
``stop`` instead and catches Ctrl-C itself.
"""

from __future__ import annotations

import signal
import threading
from collections import deque
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterable, Iterator, Sequence, TypeVar

from referee.engine.usage import UsageError

if TYPE_CHECKING:  # loaded when there are workers: one process needs none of it
    from concurrent.futures import Future, ProcessPoolExecutor

GRACE = 5.0  # seconds the workers have, after Ctrl-C, to end the chunks they are on
Progress = Callable[[int, int], None]
R = TypeVar("R")  # a run, or whatever the work is on
T = TypeVar("T")  # what the work on one run gives


def in_order(task: Callable[[R], T], local: Callable[[R], T], runs: Sequence[R], jobs: int,
             progress: Progress | None, initializer: Callable[..., None],
             initargs: tuple, stop: threading.Event | None = None,
             chunk: int | None = None) -> Generator[T, None, None]:
    """``local(run)`` for every run here, or ``task(run)`` in ``jobs - 1`` worker
    processes (each set up by ``initializer(*initargs)``, which must make it ignore
    Ctrl-C) and ``local(run)`` here for the chunks this process takes; results in the
    order of ``runs`` either way, yielded as they come.

    Runs travel to the workers in chunks (``chunk`` runs each, or a size from the
    number of runs; fewer near the end, see ``_slices``), and only a few chunks are
    out at once, so finished results never pile up in this process faster than they
    are used. Once ``stop`` is set, no chunk is begun; every chunk begun is finished
    and yielded, so the results stop short of the end as a prefix of ``runs``, in order.
    """
    stop = stop or threading.Event()
    # A process beyond one per run would have nothing to do; started all the same,
    # --jobs 100000 would fork as many processes (and a number past a C int fails).
    jobs = min(jobs, len(runs))
    if jobs <= 1 or len(runs) < 2:
        for number, run in enumerate(runs, 1):
            if stop.is_set():
                return
            result = local(run)
            if progress:  # before the yield: the caller may not ask for more after the last run
                progress(number, len(runs))
            yield result
        return
    from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
    from multiprocessing import active_children

    chunk = chunk or max(1, min(16, len(runs) // (jobs * 8)))
    elders = frozenset(active_children())  # a child older than the pool is not its worker
    with _workers_born_deaf():
        pool = ProcessPoolExecutor(max_workers=jobs - 1, initializer=initializer, initargs=initargs)
    number = 0
    windowed = _Windowed(pool, task, local, runs, chunk, jobs - 1, stop)
    try:
        for results in windowed:
            for result in results:
                number += 1
                if progress:  # before the yield, as above
                    progress(number, len(runs))
                yield result
    except GeneratorExit:
        # Closed by the caller: after the last result (a zip that ran out of its
        # other iterable first) the work is done and the workers idle, so they end
        # as after a loop run to its end; before it, the caller gave up.
        if number < len(runs):
            _stop(pool, windowed.pending, elders)
        else:
            pool.shutdown()
        raise
    except BrokenExecutor:  # the pool is broken: a worker died
        _stop(pool, windowed.pending, elders)
        raise WorkerEnded(WORKER_ENDED) from None
    except BaseException:  # Ctrl-C above all: stop now
        _stop(pool, windowed.pending, elders)
        raise
    pool.shutdown()


# A worker killed (the kernel's out-of-memory killer, kill -9) or crashed takes its
# chunk with it, and the executor can take no more work: the grade cannot be finished.
WORKER_ENDED = ("a worker process (--jobs) ended before its work was done: it was killed (out of memory, "
                "or by a signal) or crashed, and the work stopped there. "
                "Run it again, with fewer --jobs if memory ran short")


class WorkerEnded(UsageError):
    """A worker process died: the message says so, where the executor's
    ``BrokenProcessPool`` would be reported as a defect of referee."""


class _Windowed:
    """Each chunk's results in order. Each worker has at most two chunks out (one to
    work on, one waiting), so that at the end this process is not left waiting on a
    long queue; while the oldest chunk is not back, this process works through the
    next one itself."""

    def __init__(self, pool: ProcessPoolExecutor, task: Callable[[Any], Any], local: Callable[[Any], Any],
                 runs: Sequence[Any], chunk: int, workers: int, stop: threading.Event) -> None:
        self.pool, self.task, self.local, self.runs = pool, task, local, runs
        self.stop = stop
        self.slices = _slices(len(runs), chunk, workers + 1)
        self.out = 2 * workers  # chunks handed to the workers at most
        self.pending: deque[Future | list] = deque()  # in the order of runs: futures, or results made here

    def __iter__(self) -> Iterator[list[Any]]:
        with _workers_born_deaf():  # the workers start with the first chunks
            for _ in range(self.out):
                self._hand_out()
        while self.pending:
            head = self.pending[0]
            if _out(head) and self._work_here():
                continue
            self.pending.popleft()
            results = head if isinstance(head, list) else head.result()
            self._hand_out()  # the next chunk goes out before this one is consumed
            yield results

    def _next(self) -> slice | None:
        return None if self.stop.is_set() else next(self.slices, None)

    def _hand_out(self) -> None:
        """Give the workers another chunk if fewer than ``out`` are still being worked on."""
        if sum(_out(p) for p in self.pending) >= self.out:
            return
        part = self._next()
        if part is not None:
            self.pending.append(self.pool.submit(_chunk_in_worker, self.task, self.runs[part]))

    def _work_here(self) -> bool:
        """Do the next chunk in this process; False when there is none to do (or
        enough results made here already wait for the oldest chunk)."""
        if len(self.pending) > 2 * self.out:
            return False
        part = self._next()
        if part is None:
            return False
        results: list[Any] = []
        self.pending.append(results)  # its place in the order; filled here and now
        for run in self.runs[part]:
            results.append(self.local(run))
            self._hand_out()  # a worker done with its chunks does not wait for this one
        return True


def _out(pending: Future | list) -> bool:
    """Whether ``pending`` is a chunk still being worked on by a worker (a list holds
    results made here): told without the executor's classes, which a grade of one
    process never loads."""
    return not isinstance(pending, list) and not pending.done()


def _slices(count: int, chunk: int, processes: int) -> Iterator[slice]:
    """The chunks of ``count`` runs in order: ``chunk`` runs each, then fewer as the
    end nears, so that the last chunks out are short and no process is left waiting
    long on another's at the end."""
    start = 0
    while start < count:
        size = max(1, min(chunk, (count - start) // (2 * processes)))
        yield slice(start, start + size)
        start += size


def ignore_ctrl_c() -> None:
    """A worker's initializer when it needs no other set-up (see ``in_order``); it
    also gives SIGTERM back its default, which ends the worker
    (``engine.terminate``)."""
    from referee.engine.terminate import end_on_sigterm

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_on_sigterm()


def _chunk_in_worker(task: Callable[[Any], Any], runs: Sequence[Any]) -> list[Any]:
    return [task(run) for run in runs]


@contextmanager
def _workers_born_deaf() -> Iterator[None]:
    """Ignore Ctrl-C while the workers start, so they are born ignoring it: a signal
    between a worker's birth and its initializer would print that worker's traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop(pool: ProcessPoolExecutor, pending: Iterable[Future | list], elders: frozenset[object]) -> None:
    """Drop the queued chunks, let the workers end the few they are on (at most two
    each, see ``_Windowed``), and end at once only a worker still on its chunk after
    ``GRACE`` seconds (they ignore Ctrl-C, see ``in_order``).

    A worker is never ended while it may be sending: ended halfway through a result,
    it leaves half a message in the pipe, and the executor's thread waits for the
    rest forever (``shutdown`` then never returns). A worker still on its chunk
    after the grace is all but surely in a run's work, not in a message. The
    executor does not name its workers (Python 3.14 adds ``terminate_workers``):
    they are the children of this process that ``elders``, the children it had
    before the pool, does not hold."""
    from concurrent.futures import wait
    from multiprocessing import active_children

    futures = [chunk for chunk in pending if not isinstance(chunk, list)]
    for future in futures:
        future.cancel()  # a chunk not yet handed to a worker is never begun
    if wait(futures, timeout=GRACE).not_done:
        for process in active_children():
            if process not in elders:
                process.terminate()
                process.join()
    pool.shutdown(wait=True, cancel_futures=True)
