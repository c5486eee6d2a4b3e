"""Rendered report texts kept on disk between grading and writing.

A run's grading.json cannot be finished before every run of its eval is graded
(its ``eval_feedback`` block needs them all), and nothing is written before every
run is graded (so Ctrl-C while grading leaves the workspace as it was). Keeping
every run's text in memory until then would make memory grow with the number of
runs; a ``Spill`` keeps it in one anonymous temporary file instead, so the
process holds a ``Ticket`` (a number) per run, the texts' places in the file
(a few machine words a run), and one run's text at a time.

The file has no name (``tempfile.TemporaryFile``): nothing is left behind, even
when the process is killed. It is made in the folder given (the workspace, on
the disk that will hold the reports) when that folder takes it, else in the
system's temporary folder; ``referee grade --check`` gives no folder, so nothing
at all is made inside the workspace.

Worker processes forked from this one put their runs' texts in themselves
(``Spill.share``): only where the texts lie crosses between the processes, not
the texts, which would otherwise be pickled there and back and written here.
They share a second file, so that this process never waits on a lock a worker
holds (a worker killed while holding it would stop every process behind it).
"""

from __future__ import annotations

import os
import tempfile
import threading
from array import array
from pathlib import Path
from typing import IO, Any

# Any str round-trips, lone surrogates included (a report's text is always valid
# UTF-8 once written, but the spill must give back exactly what it was given).
_ENCODING, _ERRORS = "utf-8", "surrogatepass"


# A number that gives back the texts of one ``put``: its place among the puts.
Ticket = int


class Spill:
    """An append-only store of texts; ``put`` from one thread, ``get`` from any."""

    def __init__(self, near: Path | None = None) -> None:
        self._near = near
        # This process's file, then the one its workers share (``share``); each is
        # made when first needed: a grade of nothing makes none.
        self._files: list[IO[bytes]] = []
        self._end = 0
        self._lock = threading.Lock()
        # Where the texts lie, as plain machine words rather than an object a run:
        # for each put, its offset and then where each of its texts ends (``_marks``),
        # where in ``_marks`` each put's words begin (``_starts``), and which file
        # holds it (``_which``: 0 this process's, 1 the workers').
        self._marks = array("q")
        self._starts = array("q")
        self._which = array("B")

    def put(self, *texts: str) -> Ticket:
        """Keep ``texts``; the ticket gives them back."""
        data = [text.encode(_ENCODING, _ERRORS) for text in texts]
        blob = b"".join(data)
        with self._lock:
            if not self._files:
                self._files.append(_temporary(self._near))
            offset = self._end
            self._end += len(blob)
            ticket = self._record(0, _marks(offset, data))
        _write_at(self._files[0].fileno(), blob, offset)
        return ticket

    def share(self) -> "SharedPart":
        """A part of this spill that processes forked from this one ``put`` into
        from now on; give what their ``put`` returns to ``adopt``. (A process
        started any other way does not share this one's files: it sends its texts
        back to be ``put`` here.)"""
        with self._lock:
            if len(self._files) < 2:
                if not self._files:
                    self._files.append(_temporary(self._near))
                self._files.append(_temporary(self._near))
            return SharedPart(self._files[1].fileno())

    def adopt(self, marks: tuple[int, ...]) -> Ticket:
        """The ticket of texts a ``SharedPart`` put: ``marks`` is what it returned."""
        with self._lock:
            return self._record(1, marks)

    def _record(self, which: int, marks: tuple[int, ...] | list[int]) -> Ticket:
        ticket = len(self._starts)
        self._starts.append(len(self._marks))
        self._marks.extend(marks)
        self._which.append(which)
        return ticket

    def get(self, ticket: Ticket) -> tuple[str, ...]:
        """The texts ``put`` returned ``ticket`` for, as they were given."""
        fd, marks = self._bounds(ticket)
        blob = _read(fd, marks[0], marks[-1] - marks[0])
        return tuple(blob[start - marks[0]:end - marks[0]].decode(_ENCODING, _ERRORS)
                     for start, end in zip(marks, marks[1:]))

    def part(self, ticket: Ticket, index: int) -> str:
        """``get(ticket)[index]``, reading that text alone."""
        return self.span(ticket, index, index + 1)

    def span(self, ticket: Ticket, first: int, stop: int) -> str:
        """``"".join(get(ticket)[first:stop])``, in one read: the texts lie one after another."""
        return self.utf8(ticket, first, stop).decode(_ENCODING, _ERRORS)

    def utf8(self, ticket: Ticket, first: int, stop: int) -> bytes:
        """``span(ticket, first, stop)`` encoded in UTF-8, as it lies in the file."""
        fd, marks = self._bounds(ticket)
        return _read(fd, marks[first], marks[stop] - marks[first])

    def _bounds(self, ticket: Ticket) -> tuple[int, list[int]]:
        """The file holding the ticket's texts, and the offset of its first text,
        then where each of its texts ends."""
        with self._lock:
            start = self._starts[ticket]
            stop = self._starts[ticket + 1] if ticket + 1 < len(self._starts) else len(self._marks)
            return self._files[self._which[ticket]].fileno(), self._marks[start:stop].tolist()

    def close(self) -> None:
        """Free the files (their space is given back at once: they have no name)."""
        for file in self._files:
            file.close()

    def __enter__(self) -> "Spill":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InMemory:
    """A ``Spill`` that keeps the texts in memory: for callers that want every
    report's text anyway (``referee.grade``, tests)."""

    def __init__(self) -> None:
        self._texts: list[tuple[str, ...]] = []

    def put(self, *texts: str) -> Ticket:
        self._texts.append(texts)
        return len(self._texts) - 1

    def get(self, ticket: Ticket) -> tuple[str, ...]:
        return self._texts[ticket]

    def part(self, ticket: Ticket, index: int) -> str:
        return self._texts[ticket][index]

    def span(self, ticket: Ticket, first: int, stop: int) -> str:
        return "".join(self._texts[ticket][first:stop])

    def utf8(self, ticket: Ticket, first: int, stop: int) -> bytes:
        return self.span(ticket, first, stop).encode(_ENCODING, _ERRORS)

    def share(self) -> None:
        """Memory is not shared with workers: they send their texts back to be ``put``."""
        return None

    def close(self) -> None:
        self._texts.clear()


class SharedPart:
    """The file a ``Spill`` shares with the worker processes forked from its own
    (``Spill.share``), and the end of what they put there, in memory they share."""

    def __init__(self, fd: int) -> None:
        import multiprocessing  # only when there are workers: it takes a while to load

        self._fd = fd
        self._end: Any = multiprocessing.Value("q", 0)  # its lock is the workers' alone

    def put(self, *texts: str) -> tuple[int, ...]:
        """Keep ``texts``; what this returns is for ``Spill.adopt`` in the process
        that shared the part."""
        data = [text.encode(_ENCODING, _ERRORS) for text in texts]
        blob = b"".join(data)
        with self._end.get_lock():
            offset = self._end.value
            self._end.value = offset + len(blob)
        _write_at(self._fd, blob, offset)
        return tuple(_marks(offset, data))


def _marks(offset: int, data: list[bytes]) -> list[int]:
    """Where texts written one after the other from ``offset`` lie: that offset,
    then where each of them ends."""
    marks = [offset]
    for part in data:
        offset += len(part)
        marks.append(offset)
    return marks


def _write_at(fd: int, blob: bytes, offset: int) -> None:
    written = 0
    while written < len(blob):  # a short write (a signal, a pipe-like file) goes on
        written += os.pwrite(fd, blob[written:], offset + written)


def _read(fd: int, offset: int, size: int) -> bytes:
    blob = b""
    while len(blob) < size:
        chunk = os.pread(fd, size - len(blob), offset + len(blob))
        if not chunk:
            raise OSError(f"the temporary file of rendered reports ended early at {offset}")
        blob += chunk
    return blob


def _temporary(near: Path | None) -> IO[bytes]:
    if near is not None:
        try:
            return tempfile.TemporaryFile(dir=near)
        except OSError:  # a read-only or full workspace: its runs will say so when written
            pass
    return tempfile.TemporaryFile()
