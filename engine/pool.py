"""Work on runs in worker processes, results in order, a few chunks at a time.

Ctrl-C reaches every process of the terminal's group: the workers are born
ignoring it (``_workers_born_deaf``, and their initializer ignores it too), and the
main process alone answers it by stopping them (``_stop``), so no worker prints a
traceback and no queued run is waited for.
"""

from __future__ import annotations

import signal
import threading
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from itertools import islice
from typing import Any, Callable, Generator, Iterator, Sequence, TypeVar

Progress = Callable[[int, int], None]
R = TypeVar("R")  # a run, or whatever the work is on
T = TypeVar("T")  # what the work on one run gives


def in_order(task: Callable[[R], T], local: Callable[[R], T], runs: Sequence[R], jobs: int,
             progress: Progress | None, initializer: Callable[..., None],
             initargs: tuple) -> Generator[T, None, None]:
    """``local(run)`` for every run here, or ``task(run)`` in ``jobs`` worker processes
    (each set up by ``initializer(*initargs)``, which must make it ignore Ctrl-C);
    results in the order of ``runs`` either way, yielded as they come.

    Runs travel to the workers in chunks, and only a few chunks are out at once, so
    finished results never pile up in this process faster than they are used.
    """
    if jobs <= 1 or len(runs) < 2:
        for number, run in enumerate(runs, 1):
            yield local(run)
            if progress:
                progress(number, len(runs))
        return
    chunk = max(1, min(16, len(runs) // (jobs * 8)))
    with _workers_born_deaf():
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=initializer, initargs=initargs)
    try:
        number = 0
        for results in _windowed(pool, task, runs, chunk, jobs * 3):
            for result in results:
                number += 1
                yield result
                if progress:
                    progress(number, len(runs))
    except BaseException:  # Ctrl-C above all (or the caller gave up): stop now
        _stop(pool)
        raise
    pool.shutdown()


def _windowed(pool: ProcessPoolExecutor, task: Callable[[Any], Any], runs: Sequence[Any], chunk: int,
              window: int) -> Iterator[list[Any]]:
    """Each chunk's results in order, with at most ``window`` chunks handed out."""
    starts = iter(range(0, len(runs), chunk))
    pending: deque = deque()
    with _workers_born_deaf():  # the workers start with the first chunks
        for start in islice(starts, window):
            pending.append(pool.submit(_chunk_in_worker, task, runs[start:start + chunk]))
    while pending:
        results = pending.popleft().result()
        following = next(starts, None)
        if following is not None:  # hand out the next chunk before this one is consumed
            pending.append(pool.submit(_chunk_in_worker, task, runs[following:following + chunk]))
        yield results


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


def _stop(pool: ProcessPoolExecutor) -> None:
    """Drop the queued work and end the workers (they ignore Ctrl-C, see ``in_order``)."""
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
