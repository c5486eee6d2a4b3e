"""Writing a run folder under the folder the user gave, and nowhere else.

A run folder is written whole into a new hidden folder beside its place, then
moved into place: a reader never sees a run being written, an import stopped
midway leaves no part of one, and a folder written by an earlier import is
replaced whole, so a run never mixes two sources (an old ``grading.json``,
``timing.json`` or ``subagents/`` beside a new transcript). Nothing is ever
written through what was there (a symlinked ``outputs/`` points anywhere). Every
folder between the output folder and the run must be a real folder, not a
symlink; a folder that referee import did not write (no ``source_map.json``) is
never replaced.

Nothing waits for the disk (no fsync): the sources are the record and an import
gives the same folders again, and a view that a machine stopping just after the
import left short is no longer the text its source map's digest names, which
makes every check over the run's calls an error (``engine.run.agents``) rather
than a check of what is left (docs/import.md, "What import promises").
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

from referee.engine.run.importers.source_map import SOURCE_MAP, dumps
from referee.engine.run.importers.writer import RunFiles


class PlaceRefused(Exception):
    """The run cannot be written where it belongs; ``str`` says why, naming the path."""


def place_run(files: RunFiles, out: Path, name: str) -> bool:
    """Write ``files`` as the run folder ``out/name``; True when it replaced an earlier import."""
    parent = _real_folders(out, name.split("/")[:-1])
    leaf = name.split("/")[-1]
    target = parent / leaf
    replaced = _replaceable(target)
    staging = Path(tempfile.mkdtemp(prefix=f".{leaf}.import-", dir=parent))
    try:
        # mkdtemp makes the folder 0700; the run folder is an ordinary one, as the
        # folders above it and the files in it are (the umask decides).
        os.chmod(staging, 0o777 & ~_umask())
        written = {**files.encoded, SOURCE_MAP: dumps(files.source_map).encode("utf-8")}
        for rel, data in sorted(written.items()):
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "xb") as handle:
                handle.write(data)
        _swap(staging, target, replaced)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return replaced


def _real_folders(out: Path, parts: list[str]) -> Path:
    """``out`` joined with ``parts``, each made when missing; a part that is a symlink
    or not a folder is refused (what is written must stay under ``out``)."""
    out.mkdir(parents=True, exist_ok=True)
    folder = out
    for part in parts:
        folder = folder / part
        try:
            os.mkdir(folder)
        except FileExistsError:
            mode = os.lstat(folder).st_mode
            if not stat.S_ISDIR(mode):
                kind = "a symlink" if stat.S_ISLNK(mode) else "not a folder"
                raise PlaceRefused(f"{folder}: {kind}; nothing is written through it") from None
    return folder


def _replaceable(target: Path) -> bool:
    """Whether ``target`` exists (then it is an earlier import, replaced whole)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(mode):
        raise PlaceRefused(f"{target}: a symlink; nothing is written through it")
    if not stat.S_ISDIR(mode):
        raise PlaceRefused(f"{target}: exists and is not a folder; not replaced")
    try:
        own = stat.S_ISREG(os.lstat(target / SOURCE_MAP).st_mode)
    except FileNotFoundError:
        own = False
    if not own:
        raise PlaceRefused(f"{target}: exists and was not written by referee import (no {SOURCE_MAP}); "
                           "not replaced: import into another folder")
    return True


def _umask() -> int:
    """The process's umask (read by setting it; import writes from one thread)."""
    current = os.umask(0)
    os.umask(current)
    return current


def _swap(staging: Path, target: Path, replaced: bool) -> None:
    if not replaced:
        os.rename(staging, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.rename(target, old / target.name)  # out of the way: the new folder takes its place at once
    os.rename(staging, target)
    shutil.rmtree(old, ignore_errors=True)
