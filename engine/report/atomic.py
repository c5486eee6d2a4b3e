"""Atomic file writes: a reader sees the old file or the new one, never half of either.

The data goes to a temporary file in the destination's own directory (``os.replace``
is only atomic within one file system), is flushed and fsynced, then renamed over the
destination. On any failure the temporary file is removed and the old file is intact.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` atomically (text is encoded as UTF-8)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = path.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp creates the file 0600; a report is an ordinary file, readable as usual.
        os.chmod(tmp_name, _FILE_MODE)
        os.replace(tmp_name, path)
    except BaseException:
        _remove_quietly(tmp_name)
        raise


def move_aside(path: Path, suffix: str = ".bak") -> Path:
    """Rename ``path`` to the first free ``<name><suffix>``, ``<name><suffix>.1``, ...

    Returns the new path. Never overwrites an existing file: an earlier backup is
    as precious as the file being moved.
    """
    candidate = path.with_name(path.name + suffix)
    number = 0
    while candidate.exists() or candidate.is_symlink():
        number += 1
        candidate = path.with_name(f"{path.name}{suffix}.{number}")
    os.replace(path, candidate)
    return candidate


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# Read once at import: os.umask can only be read by setting it, which would race
# with file creation in writer threads.
_FILE_MODE = _default_mode()


def _remove_quietly(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass
