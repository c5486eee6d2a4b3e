"""One writer per workspace: an advisory lock on the workspace directory itself.

Two ``referee grade`` commands writing into the same workspace at once would
leave some runs graded by one and some by the other. The writer takes an
exclusive ``flock`` on the workspace directory (no lock file is created, so a
read-only workspace needs nothing written to be locked); a second writer waits
up to ``WAIT_SECONDS`` and then gives up with ``WorkspaceBusy``. The lock goes
with the process: a writer killed with ``kill -9`` releases it at once.

Where the platform has no ``flock`` (Windows) or the directory cannot be
opened, writing goes on unlocked: the lock guards against a race, it is not a
precondition for writing.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

WAIT_SECONDS = 10.0
_POLL_SECONDS = 0.05


class WorkspaceBusy(Exception):
    """Another process holds the workspace's lock; ``str(error)`` says what to do."""


# The directories this process holds (device, inode): a run folder that is also the
# workspace being graded is locked once; a second flock of our own would wait on us.
_HELD: set[tuple[int, int]] = set()
_HELD_GUARD = threading.Lock()


@contextmanager
def workspace_lock(workspace: Path, wait: float | None = None) -> Iterator[bool]:
    """Hold the workspace's write lock inside the ``with``; yields whether it is held."""
    fd = _open(workspace)
    if fd is None:
        yield False
        return
    try:
        info = os.fstat(fd)
        key = (info.st_dev, info.st_ino)
        with _HELD_GUARD:
            mine = key in _HELD
        if mine:
            yield True
            return
        _acquire(fd, workspace, WAIT_SECONDS if wait is None else wait)
        with _HELD_GUARD:
            _HELD.add(key)
        try:
            yield True
        finally:
            with _HELD_GUARD:
                _HELD.discard(key)
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _open(workspace: Path) -> int | None:
    if fcntl is None:
        return None
    try:
        return os.open(workspace, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None


def _acquire(fd: int, workspace: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise WorkspaceBusy(
                    f"another referee is writing reports into {workspace.as_posix()} (it holds the "
                    f"workspace's lock); waited {wait:g}s. Nothing was written: every run kept "
                    "its old files. Run this again when the other one has finished") from None
            time.sleep(_POLL_SECONDS)
        except OSError:
            return  # a file system without flock: write unlocked
