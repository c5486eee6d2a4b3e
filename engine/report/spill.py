"""Rendered report texts kept on disk between grading and writing.

A run's grading.json cannot be finished before every run of its eval is graded
(its ``eval_feedback`` block needs them all), and nothing is written before every
run is graded (so Ctrl-C while grading leaves the workspace as it was). Keeping
every run's text in memory until then would make memory grow with the number of
runs; a ``Spill`` keeps it in one anonymous temporary file instead, so the
process holds a ``Ticket`` (three numbers) per run and one run's text at a time.

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
from dataclasses import dataclass
from pathlib import Path
from typing import IO

# Any str round-trips, lone surrogates included (a report's text is always valid
# UTF-8 once written, but the spill must give back exactly what it was given).
_ENCODING, _ERRORS = "utf-8", "surrogatepass"


@dataclass(frozen=True, slots=True)  # one per run, kept to the end: no __dict__
class Ticket:
    """Where one run's texts lie in the spill: their offset and byte lengths."""

    offset: int
    lengths: tuple[int, ...]


class Spill:
    """An append-only store of texts; ``put`` from one thread, ``get`` from any."""

    def __init__(self, near: Path | None = None) -> None:
        self._near = near
        self._file: IO[bytes] | None = None  # made by the first ``put``: a grade of nothing makes none
        self._fd = -1
        self._end = 0
        self._lock = threading.Lock()

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
        written = 0
        while written < len(blob):  # a short write (a signal, a pipe-like file) goes on
            written += os.pwrite(self._fd, blob[written:], offset + written)
        return Ticket(offset, tuple(len(part) for part in data))

    def get(self, ticket: Ticket) -> tuple[str, ...]:
        """The texts ``put`` returned ``ticket`` for, as they were given."""
        blob = self._read(ticket.offset, sum(ticket.lengths))
        texts, start = [], 0
        for length in ticket.lengths:
            texts.append(blob[start:start + length].decode(_ENCODING, _ERRORS))
            start += length
        return tuple(texts)

    def part(self, ticket: Ticket, index: int) -> str:
        """``get(ticket)[index]``, reading that text alone."""
        start = ticket.offset + sum(ticket.lengths[:index])
        return self._read(start, ticket.lengths[index]).decode(_ENCODING, _ERRORS)

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
        return Ticket(len(self._texts) - 1, ())

    def get(self, ticket: Ticket) -> tuple[str, ...]:
        return self._texts[ticket.offset]

    def part(self, ticket: Ticket, index: int) -> str:
        return self._texts[ticket.offset][index]

    def close(self) -> None:
        self._texts.clear()


def _temporary(near: Path | None) -> IO[bytes]:
    if near is not None:
        try:
            return tempfile.TemporaryFile(dir=near)
        except OSError:  # a read-only or full workspace: its runs will say so when written
            pass
    return tempfile.TemporaryFile()
