"""Work shared among processes: results in order, this process working too, and a
stop that finishes what was begun and begins nothing more."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import pool
from referee.engine.pool import _slices, ignore_ctrl_c, in_order
from referee.engine.usage import UsageError


def _square(number: int) -> tuple[int, int]:
    time.sleep(0.002)  # long enough that a chunk handed out is not back at once
    return number * number, os.getpid()


def _squares(runs, jobs: int, chunk: int | None = None, stop=None, local=_square) -> list[tuple[int, int]]:
    return list(in_order(_square, local, runs, jobs, None, ignore_ctrl_c, (), stop=stop, chunk=chunk))


@given(count=st.integers(0, 5000), chunk=st.integers(1, 32), processes=st.integers(2, 8))
def test_chunks_cover_the_runs_in_order_and_shrink_toward_the_end(count, chunk, processes):
    parts = list(_slices(count, chunk, processes))
    assert [n for part in parts for n in range(count)[part]] == list(range(count))
    sizes = [part.stop - part.start for part in parts]
    assert all(1 <= size <= chunk for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    # near the end, no chunk is longer than the runs left shared among the processes
    assert all(size <= max(1, (count - part.start) // (2 * processes)) for part, size in zip(parts, sizes))


@settings(max_examples=8, deadline=None)
@given(count=st.integers(0, 60), jobs=st.integers(1, 3), chunk=st.one_of(st.none(), st.integers(1, 7)))
def test_results_come_in_the_order_of_the_runs(count, jobs, chunk):
    found = _squares(list(range(count)), jobs, chunk)
    assert [value for value, _ in found] == [n * n for n in range(count)]


def test_this_process_works_beside_its_workers():
    # Two jobs are one worker and this process: both take chunks.
    pids = {pid for _, pid in _squares(list(range(80)), 2, chunk=2)}
    assert os.getpid() in pids and len(pids) == 2


def test_progress_counts_every_run_once():
    seen: list[tuple[int, int]] = []
    list(in_order(_square, _square, list(range(30)), 2, lambda n, total: seen.append((n, total)),
                  ignore_ctrl_c, (), chunk=4))
    assert seen == [(n, 30) for n in range(1, 31)]


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_a_stop_finishes_what_was_begun_and_begins_nothing_more(jobs):
    stop = threading.Event()
    done_here: list[int] = []

    def local(number: int):
        done_here.append(number)
        if len(done_here) == 3:
            stop.set()  # as Ctrl-C would, while this process works on a chunk
        return _square(number)

    runs = list(range(200))
    found = _squares(runs, jobs, chunk=4, stop=stop, local=local)
    assert 3 <= len(found) < len(runs)
    assert [value for value, _ in found] == [n * n for n in range(len(found))]  # a prefix, in order
    if jobs > 1:
        assert len(found) % 4 == 0  # every chunk begun was finished


def test_a_stop_set_before_the_start_begins_nothing():
    stop = threading.Event()
    stop.set()
    assert _squares(list(range(20)), 1, stop=stop) == []
    assert _squares(list(range(20)), 2, chunk=2, stop=stop) == []


def _stuck(number: int) -> int:
    time.sleep(600)  # a worker leaves this only when it is ended
    return number


def test_ctrl_c_ends_a_worker_still_on_its_chunk_after_the_grace(monkeypatch):
    monkeypatch.setattr(pool, "GRACE", 0.5)
    elders = set(multiprocessing.active_children())
    workers: list = []

    def local(number: int) -> int:  # this process's first chunk: the worker is busy by now
        workers.extend(p for p in multiprocessing.active_children() if p not in elders)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        list(in_order(_stuck, local, list(range(8)), 2, None, ignore_ctrl_c, (), chunk=1))
    try:
        assert workers
        for worker in workers:
            worker.join(timeout=60)  # ended after the grace; the bound only keeps a failure from hanging
            assert worker.exitcode == -signal.SIGTERM
    finally:
        for worker in workers:
            worker.kill()


# Workers that send results larger than a pipe holds, and Ctrl-C while they do: a
# worker ended halfway through a result would leave the executor's thread waiting
# for the rest of it forever. Run in a child process, so that a hang fails the test.
CTRL_C_WHILE_SENDING = """
import multiprocessing
from referee.engine.pool import ignore_ctrl_c, in_order

def big(number):
    return "x" * 300_000

def local(number):
    if number >= 40:
        raise KeyboardInterrupt
    return big(number)

if __name__ == "__main__":
    try:
        for _ in in_order(big, local, list(range(400)), 3, None, ignore_ctrl_c, (), chunk=2):
            pass
    except KeyboardInterrupt:
        print("stopped", multiprocessing.active_children())
"""


def test_ctrl_c_while_the_workers_send_their_results_ends_them_cleanly(tmp_path):
    script = tmp_path / "sending.py"
    script.write_text(CTRL_C_WHILE_SENDING, encoding="utf-8")
    for _ in range(5):  # an ended worker hung it 5 times in 6
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stdout, done.stderr) == (0, "stopped []\n", "")


def _others(threads: set[threading.Thread]) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t not in threads and t.is_alive()]


def test_a_caller_that_stops_reading_after_the_last_result_lets_the_workers_end_cleanly():
    # grade reads the results through zip(places, results): zip stops on the places
    # and closes the results' generator after the last result. That is the end of
    # the work, not a Ctrl-C: the workers end as after a loop run to its end.
    elders = set(multiprocessing.active_children())
    threads = set(threading.enumerate())
    workers: list = []

    def local(number: int):
        workers.extend(p for p in multiprocessing.active_children() if p not in elders and p not in workers)
        return _square(number)

    runs = list(range(40))
    results = in_order(_square, local, runs, 2, None, ignore_ctrl_c, (), chunk=2)
    found = [value for _, (value, _) in zip(runs, results)]
    results.close()
    assert found == [n * n for n in runs]
    assert workers
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    assert _others(threads) == []  # the executor's thread is over: nothing is left to race the exit


def test_ctrl_c_leaves_no_thread_of_the_pool_running(monkeypatch):
    monkeypatch.setattr(pool, "GRACE", 0.5)
    threads = set(threading.enumerate())

    def local(number: int) -> int:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        list(in_order(_stuck, local, list(range(8)), 2, None, ignore_ctrl_c, (), chunk=1))
    assert _others(threads) == []


def _killed(number: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer ends a worker
    return number


def test_a_worker_killed_is_a_clear_error_and_leaves_no_process_or_thread():
    # A worker killed while grading made the executor's BrokenProcessPool reach the
    # command line as "internal error ... please report this".
    elders = set(multiprocessing.active_children())
    threads = set(threading.enumerate())
    with pytest.raises(pool.WorkerEnded) as raised:
        list(in_order(_killed, _square, list(range(40)), 3, None, ignore_ctrl_c, (), chunk=2))
    assert isinstance(raised.value, UsageError)
    assert "a worker process (--jobs) ended" in str(raised.value) and "fewer --jobs" in str(raised.value)
    assert set(multiprocessing.active_children()) <= elders
    assert _others(threads) == []
