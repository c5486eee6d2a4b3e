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
"""

from __future__ import annotations

import os
import tempfile
import threading
from array import array
from pathlib import Path
from typing import IO

# Any str round-trips, lone surrogates included (a report's text is always valid
# UTF-8 once written, but the spill must give back exactly what it was given).
_ENCODING, _ERRORS = "utf-8", "surrogatepass"


# A number that gives back the texts of one ``put``: its place among the puts.
Ticket = int


class Spill:
    """An append-only store of texts; ``put`` from one thread, ``get`` from any."""

    def __init__(self, near: Path | None = None) -> None:
        self._near = near
        self._file: IO[bytes] | None = None  # made by the first ``put``: a grade of nothing makes none
        self._fd = -1
        self._end = 0
        self._lock = threading.Lock()
        # Where the texts lie, as plain machine words rather than an object a run:
        # for each put, its offset and then where each of its texts ends (``_marks``),
        # and where in ``_marks`` each put's words begin (``_starts``).
        self._marks = array("q")
        self._starts = array("q")

    def put(self, *texts: str) -> Ticket:
        """Keep ``texts``; the ticket gives them back."""
        data = [text.encode(_ENCODING, _ERRORS) for text in texts]
        blob = b"".join(data)
        with self._lock:
            if self._file is None:
                made = _temporary(self._near)
                self._file, self._fd = made, made.fileno()
            offset = self._end
            self._end += len(blob)
            ticket = len(self._starts)
            self._starts.append(len(self._marks))
            self._marks.append(offset)
            for part in data:
                offset += len(part)
                self._marks.append(offset)
        written, offset = 0, self._marks[self._starts[ticket]]
        while written < len(blob):  # a short write (a signal, a pipe-like file) goes on
            written += os.pwrite(self._fd, blob[written:], offset + written)
        return ticket

    def get(self, ticket: Ticket) -> tuple[str, ...]:
        """The texts ``put`` returned ``ticket`` for, as they were given."""
        marks = self._bounds(ticket)
        blob = self._read(marks[0], marks[-1] - marks[0])
        return tuple(blob[start - marks[0]:end - marks[0]].decode(_ENCODING, _ERRORS)
                     for start, end in zip(marks, marks[1:]))

    def part(self, ticket: Ticket, index: int) -> str:
        """``get(ticket)[index]``, reading that text alone."""
        marks = self._bounds(ticket)
        return self._read(marks[index], marks[index + 1] - marks[index]).decode(_ENCODING, _ERRORS)

    def _bounds(self, ticket: Ticket) -> list[int]:
        """The offset of the ticket's first text, then where each of its texts ends."""
        with self._lock:
            start = self._starts[ticket]
            stop = self._starts[ticket + 1] if ticket + 1 < len(self._starts) else len(self._marks)
            return self._marks[start:stop].tolist()

    def _read(self, offset: int, size: int) -> bytes:
        blob = b""
        while len(blob) < size:
            chunk = os.pread(self._fd, size - len(blob), offset + len(blob))
            if not chunk:
                raise OSError(f"the temporary file of rendered reports ended early at {offset}")
            blob += chunk
        return blob

    def close(self) -> None:
        """Free the file (its space is given back at once: it has no name)."""
        if self._file is not None:
            self._file.close()

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

    def close(self) -> None:
        self._texts.clear()


def _temporary(near: Path | None) -> IO[bytes]:
    if near is not None:
        try:
            return tempfile.TemporaryFile(dir=near)
        except OSError:  # a read-only or full workspace: its runs will say so when written
            pass
    return tempfile.TemporaryFile()
