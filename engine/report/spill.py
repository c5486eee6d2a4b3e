"""Graded runs kept on disk between grading and writing.

A run's grading.json cannot be finished before every run of its eval is graded
(its ``eval_feedback`` block needs them all), and nothing is written before every
run is graded (so Ctrl-C while grading leaves the workspace as it was). Keeping
every graded run in memory until then would make memory grow with the number of
runs; a ``Spill`` keeps each run's record (``engine.report.run_report``: opaque
bytes here) in one anonymous temporary file instead, so the process holds a
``Ticket`` (a number) per run, where its record lies (two machine words a run),
and one run's record at a time.

The file has no name (``tempfile.TemporaryFile``): nothing is left behind, even
when the process is killed. It is made in the folder given (the workspace, on
the disk that will hold the reports) when that folder takes it, else in the
system's temporary folder; ``referee grade --check`` gives no folder, so nothing
at all is made inside the workspace.
"""

from __future__ import annotations

import os
import tempfile
import threading
from array import array
from pathlib import Path
from typing import IO

# A number that gives back the record of one ``put``: its place among the puts.
Ticket = int


class Spill:
    """An append-only store of records; ``put`` from one thread, ``get`` from any."""

    def __init__(self, near: Path | None = None) -> None:
        self._near = near
        self._file: IO[bytes] | None = None  # made when first needed: a grade of nothing makes none
        self._lock = threading.Lock()
        # Where each record starts; the next one's start (or the end) is where it ends.
        self._starts = array("q")
        self._end = 0

    def put(self, record: bytes) -> Ticket:
        """Keep ``record``; the ticket gives it back."""
        with self._lock:
            if self._file is None:
                self._file = _temporary(self._near)
            offset = self._end
            self._end += len(record)
            self._starts.append(offset)
            ticket = len(self._starts) - 1
        _write_at(self._file.fileno(), record, offset)
        return ticket

    def get(self, ticket: Ticket) -> bytes:
        """The record ``put`` returned ``ticket`` for."""
        with self._lock:
            start = self._starts[ticket]
            end = self._starts[ticket + 1] if ticket + 1 < len(self._starts) else self._end
            assert self._file is not None  # a ticket was given: the file exists
            fd = self._file.fileno()
        return _read(fd, start, end - start)

    def close(self) -> None:
        """Free the file (its space is given back at once: it has no name)."""
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> Spill:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InMemory:
    """A ``Spill`` that keeps the records in memory: for callers that want every
    run's report anyway (``referee.grade``, tests)."""

    def __init__(self) -> None:
        self._records: list[bytes] = []

    def put(self, record: bytes) -> Ticket:
        self._records.append(record)
        return len(self._records) - 1

    def get(self, ticket: Ticket) -> bytes:
        return self._records[ticket]

    def close(self) -> None:
        self._records.clear()


def _write_at(fd: int, blob: bytes, offset: int) -> None:
    written = 0
    while written < len(blob):  # a short write (a signal, a pipe-like file) goes on
        written += os.pwrite(fd, blob[written:], offset + written)


def _read(fd: int, offset: int, size: int) -> bytes:
    blob = b""
    while len(blob) < size:
        chunk = os.pread(fd, size - len(blob), offset + len(blob))
        if not chunk:
            raise OSError(f"the temporary file of graded runs ended early at {offset}")
        blob += chunk
    return blob


def _temporary(near: Path | None) -> IO[bytes]:
    if near is not None:
        try:
            return tempfile.TemporaryFile(dir=near)
        except OSError:  # a read-only or full workspace: its runs will say so when written
            pass
    return tempfile.TemporaryFile()
