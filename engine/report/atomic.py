"""Atomic file writes: a reader sees the old file or the new one, never half of either.

The data goes to a temporary file in the destination's own directory (``os.replace``
is only atomic within one file system), is flushed and fsynced, then renamed over the
destination. On any failure the temporary file is removed and the old file is intact.

``replace_together`` does the same for a group of files in one directory (a run's
grading.json and ground_truth.json): every new file is on disk before the first
rename, and a rename that fails puts back the files already replaced, so the group
is all old or all new. A process killed in the middle (``kill -9``) can leave its
temporary files (``.<name>.<8 characters>.tmp``) and the links to the old files
(``.<name>.<8 characters>.old``); ``remove_stale`` deletes them on the next write.

Only a regular file, or a path where nothing is, is ever replaced. A symbolic link,
a FIFO, a device, a socket or a directory standing where a report goes is not
referee's to replace (as root, ``-o /dev/null`` once replaced the system's
``/dev/null``): ``write_atomic`` and ``replace_together`` refuse it with
``NotReplaceable`` and leave it as it is. ``write_output``, for a path the user
named, writes through it as the shell's ``>`` would instead (``-o /dev/stdout``
prints): opened and truncated, never replaced. The check is made just before the
temporary file is created; what is put there after it is not seen.
"""

from __future__ import annotations

import os
import random
import re
import stat
import tempfile
from pathlib import Path
from typing import Iterable


def encode(data: bytes | str) -> bytes:
    """UTF-8 bytes of ``data``. A lone surrogate (a file name that was not UTF-8,
    decoded by the OS layer) is written as its JSON/Python escape ``\\udcff``,
    never as invalid UTF-8 and never as an encoding error."""
    return data.encode("utf-8", errors="backslashreplace") if isinstance(data, str) else data


class NotReplaceable(OSError):
    """What stands at the path is not a regular file (a symbolic link, a FIFO, a
    device ...); it was left as it was. ``str(error)`` names the path and what it is."""


def write_atomic(path: Path, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` atomically (text is encoded as UTF-8); raises
    ``NotReplaceable`` when ``path`` is there and is not a regular file."""
    require_replaceable(path)
    tmp_name = _temporary(path, encode(data))
    try:
        os.replace(tmp_name, path)
    except BaseException:
        _remove_quietly(tmp_name)
        raise


def replace_together(files: dict[Path, bytes | str]) -> None:
    """Replace every file of ``files`` (one directory) so that all change or none does.

    Raises the first ``OSError``; by then every file already replaced has been put
    back (or removed, if it did not exist before) and no temporary file is left.
    A path holding something else than a regular file raises ``NotReplaceable``
    before anything is written.
    """
    for path in files:
        require_replaceable(path)
    temporaries: list[tuple[Path, str]] = []
    try:
        for path, data in files.items():
            temporaries.append((path, _temporary(path, encode(data))))
        _swap_in(temporaries)
    except BaseException:
        for _, tmp_name in temporaries:  # once swapped in, a temporary has no name left to remove
            _remove_quietly(tmp_name)
        raise


def write_output(path: Path, data: bytes | str) -> None:
    """Write ``data`` where the user said: a regular file or a new path is replaced
    atomically (``write_atomic``); anything else is written through, as the shell's
    ``>`` would: a symbolic link is followed, a FIFO or a device is opened and
    written (``/dev/stdout`` prints, ``/dev/null`` discards), never replaced. A
    FIFO waits for its reader, as it does for the shell. A directory (or a link to
    one) is an ``OSError`` naming it."""
    kind = _kind(path)
    if kind is None:
        write_atomic(path, data)
        return
    if kind == "a directory":
        raise NotReplaceable(f"{path.as_posix()} is a directory")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o666)
    with os.fdopen(fd, "wb") as handle:
        handle.write(encode(data))


def require_replaceable(path: Path) -> None:
    """Raise ``NotReplaceable`` unless ``path`` is a regular file or nothing at all."""
    kind = _kind(path)
    if kind is not None:
        raise NotReplaceable(f"{path.as_posix()} is {kind}, not a regular file; referee replaces "
                             "only regular files and left it as it is")


_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def _kind(path: Path) -> str | None:
    """What stands at ``path`` when it is not a regular file; None for a regular file
    or nothing (a path inside a missing folder is nothing: creating it fails later)."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _swap_in(temporaries: list[tuple[Path, str]]) -> None:
    """Rename each temporary over its file, keeping a link to each old file until all are in."""
    done: list[tuple[Path, str | None]] = []
    try:
        for path, tmp_name in temporaries:
            old = _link_old(path)
            done.append((path, old))
            os.replace(tmp_name, path)
    except BaseException:
        for path, old in reversed(done):
            _put_back(path, old)
        raise
    finally:
        for _, old in done:
            if old:
                _remove_quietly(old)


def _link_old(path: Path) -> str | None:
    """A hard link to the current ``path`` under a stale-looking name; None if there is
    no such file; "" if the file system cannot link it (then it cannot be put back)."""
    if not os.path.lexists(path):
        return None
    for _ in range(_NAME_TRIES):
        link = os.path.join(path.parent, f".{path.name}.{_random_part()}.old")
        try:
            os.link(path, link, follow_symlinks=False)
        except FileExistsError:
            continue  # taken: draw again, as mkstemp does
        except OSError:
            return ""
        return link
    return ""


def _put_back(path: Path, old: str | None) -> None:
    try:
        if old is None:
            os.unlink(path)
        elif old:
            os.replace(old, path)
    except OSError:
        pass  # the first error is the one reported; this file keeps what it has


# The link's name has the shape of mkstemp's (``remove_stale`` knows it); made and
# linked in one step, since reserving a name with a file of its own cost a create
# and an unlink per report, the slowest calls of a write on some file systems.
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"
_NAME_TRIES = 100
_NAMES = random.Random()


def _random_part() -> str:
    return "".join(_NAMES.choices(_NAME_CHARS, k=8))


def _temporary(path: Path, payload: bytes) -> str:
    """``payload`` in a new fsynced file beside ``path``; returns its name."""
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp creates the file 0600; a report is an ordinary file, readable as usual.
        os.chmod(tmp_name, _FILE_MODE)
    except BaseException:
        _remove_quietly(tmp_name)
        raise
    return tmp_name


def remove_stale(directory: Path, names: Iterable[str]) -> list[str]:
    """Delete what an interrupted write of ``names`` left in ``directory``; returns
    the names removed. Only referee's own patterns are touched: ``.<name>.`` plus the
    8 characters ``mkstemp`` draws, then ``.tmp`` or ``.old``."""
    wanted = re.compile(r"\.(?:%s)\.[a-z0-9_]{8}\.(?:tmp|old)" % "|".join(re.escape(n) for n in names))
    removed: list[str] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        if wanted.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            _remove_quietly(entry.path)
            removed.append(entry.name)
    return sorted(removed)


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
