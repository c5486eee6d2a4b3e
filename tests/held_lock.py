"""A workspace's lock held as another process holds it (a grade writing into it)."""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def held_elsewhere(directory: Path):
    """The directory's lock as another process would hold it: its own open file."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
