"""Whether a grade, or a benchmark, is older than what it was made from.

``grade`` records in each grading.json (``run.files_digest``) a digest of the
run's files as it reads them: every file at the top of the run folder but the
reports referee writes there, and everything under ``outputs/`` and
``subagents/``. A run imported or edited again after its grade gives another
digest: ``report`` and ``aggregate`` compare it with the run as it is now and
call the grade stale, never showing its verdicts as the run's.

``aggregate`` records in benchmark.json (``inputs``) the digest of every
grading.json it read, so ``report`` can tell a benchmark made before a re-grade.

Nothing here depends on the clock or on file times: the same bytes give the
same digest. Only regular files are read, in chunks: a link is digested as its
target's name, a FIFO or a device as its kind (never opened, so nothing can
stall), and a file over the size the grader reads as its size alone (the grader
sees no more of it). Every name and every content is framed by its length, so
two different folders never feed the hash the same bytes.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from referee.engine.report.marker import GRADING
from referee.engine.run.safeio import MAX_TEXT_BYTES

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

PREFIX = "sha256:"
DIGITS = 32  # hex digits kept: 128 bits, as grader_input keeps
TREES = ("outputs", "subagents")
# What referee itself writes into a run folder (a run may be the folder a report
# or a benchmark is written into), with backups and interrupted writes' leftovers.
_OWN = re.compile(r"\.?(?:grading\.json|ground_truth\.json|benchmark\.json|benchmark\.md|critique\.json"
                  r"|report\.html|junit\.xml|summary\.md|shard-[0-9]+-of-[0-9]+\.json|shard-merge\.json)"
                  r"(?:\.bak(?:\.\d+)?|\.[a-z0-9_]{8}\.(?:tmp|old))?")
_CHUNK = 1 << 20


def files_digest(run: Run) -> str | None:
    """``sha256:`` and 32 hex digits over the run's files; None for a run with neither
    a folder nor files of its own. A run held in memory (``engine.run.memory``, its
    ``files`` a mapping) digests as the same files on disk do."""
    held = getattr(run, "files", None)
    if isinstance(held, Mapping):
        entries = ((rel, _held(held[rel])) for rel in sorted(r for r in held if digested(r)))
        return _digest(entries)
    folder = getattr(run, "path", None)
    if folder is None:
        return None
    return folder_digest(folder)


def folder_digest(folder: str | os.PathLike[str]) -> str | None:
    """``files_digest`` of the run in ``folder``; None when it is no folder."""
    if not os.path.isdir(folder):
        return None
    return _digest((rel, _content(os.path.join(folder, rel))) for rel in _names(os.fspath(folder)))


def file_digest(path: Path) -> str | None:
    """The digest of one regular file's bytes; None when there is none or it cannot be read."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        return PREFIX + _hash(os.fspath(path)).hexdigest()[:DIGITS]
    except OSError:
        return None


def text_digest(data: bytes) -> str:
    """What ``file_digest`` gives for a file holding ``data``, before it is written."""
    return PREFIX + hashlib.sha256(data).hexdigest()[:DIGITS]


def stale_grade(recorded: str | None, run: Run) -> bool:
    """True when the grade recorded a digest and the run's files no longer give it.
    A grading.json without one (written before digests were recorded) is not judged."""
    return recorded is not None and files_digest(run) != recorded


def copied_runs(records: Iterable[tuple[str, Any, Any, Any]]) -> str | None:
    """Why runs read together are not all runs of their own, or None. ``records`` are
    each run's place, its iteration, and the place and ``files_digest`` its grading.json
    records. A folder renamed since its grade records a place no other run records; a
    folder copied after its grade records the place and the files of the run it was
    copied from, as that run does: counting both would count one run's verdicts twice,
    and which of them is the original is a guess. A copy graded again records its own
    place. Runs are compared within an iteration: ``aggregate`` and ``compare`` read one."""
    by_origin: dict[tuple[str, str, str], list[str]] = {}
    for place, iteration, recorded, digest in records:
        if isinstance(recorded, str) and isinstance(digest, str):
            by_origin.setdefault((str(iteration), recorded, digest), []).append(place)
    copies = [(recorded, sorted(places)) for (_, recorded, _), places in sorted(by_origin.items())
              if len(places) > 1]
    if not copies:
        return None
    lines = [f"{' and '.join(places)} are one graded run (each {GRADING} records the run at {recorded} with "
             "the same files)" for recorded, places in copies[:SHOWN_COPIES]]
    more = f", and {len(copies) - SHOWN_COPIES} more such runs" if len(copies) > SHOWN_COPIES else ""
    return ("; ".join(lines) + more + ": a copy would count its verdicts twice; delete the copy, or grade it "
            "again to make it a run of its own")


SHOWN_COPIES = 3  # copies named in the message; the rest are counted


def graded_elsewhere(place: str, recorded: Any, others: Iterable[str]) -> str | None:
    """The place, among ``others`` (the runs of the iterations not read with it), of the
    run whose grade the run at ``place`` holds, its grading.json recording that place
    (``recorded``): an iteration folder copied with its grades (``cp -r iteration-1
    iteration-2``) holds the other iteration's grades, not its own, and counting them
    would show that iteration's results as this one's. None when the grade is its own,
    or its place is no run's (a folder renamed since its grade)."""
    if not isinstance(recorded, str) or not recorded or _placed_at(place, recorded):
        return None
    return next((other for other in others if _placed_at(other, recorded)), None)


def copied_iterations(read: list[tuple[Any, str, Any]], places: list[tuple[Any, str]]) -> dict[int, str]:
    """``graded_elsewhere`` over runs read from several iterations: for each run of
    ``read`` (its iteration, place and the place its grading.json records) whose grade
    is one of a run of another iteration (``places``: every run's iteration and place),
    its index and that run's place."""
    by_iteration: dict[Any, list[str]] = {}
    for iteration, place in places:
        by_iteration.setdefault(iteration, []).append(place)
    found: dict[int, str] = {}
    for index, (iteration, place, recorded) in enumerate(read if len(by_iteration) > 1 else ()):
        others = (other for key, shared in by_iteration.items() if key != iteration for other in shared)
        origin = graded_elsewhere(place, recorded, others)
        if origin is not None:
            found[index] = origin
    return found


def copied_grade(origin: str) -> str:
    """Why a run whose grade ``graded_elsewhere`` found at ``origin`` is left out."""
    return (f"{GRADING} is the grade of {origin}, a run of another iteration (it records that place), "
            "copied with the folder and not graded here: grade the run again")


def _placed_at(place: str, recorded: str) -> bool:
    """Whether a run at ``place`` may be the one a grading.json records at ``recorded``:
    a grade of a subfolder records the run's place below that folder, and one of a
    folder above the workspace its place below that one."""
    return place == recorded or place.endswith("/" + recorded) or recorded.endswith("/" + place)


def _digest(entries: Iterable[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for rel, content in entries:
        _frame(digest, os.fsencode(rel))
        _frame(digest, content)
    return PREFIX + digest.hexdigest()[:DIGITS]


def digested(rel: str) -> bool:
    """Whether a file at ``rel`` (POSIX, relative to a run folder) is one of the run's
    files, which ``files_digest`` covers: a file written there changes the run."""
    top, _, rest = rel.partition("/")
    return bool(rest) if top in TREES else not rest and not _OWN.fullmatch(top)


def _names(folder: str) -> list[str]:
    names = []
    for entry in _entries(folder):
        if entry.name in TREES and entry.is_dir(follow_symlinks=False):
            names += _tree(entry.path, entry.name)
        elif not entry.is_dir(follow_symlinks=False) and digested(entry.name):
            names.append(entry.name)
    return sorted(names)


def _tree(top: str, rel: str) -> list[str]:
    names = []
    for entry in _entries(top):
        inner = f"{rel}/{entry.name}"
        names += _tree(entry.path, inner) if entry.is_dir(follow_symlinks=False) else [inner]
    return names


def _entries(folder: str) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except OSError:
        return []  # an unreadable folder digests as an empty one: its files are unread by the grader too


def _content(path: str) -> bytes:
    """What stands at ``path``, as bytes to digest: a kind, then what identifies it."""
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            return b"link\0" + os.fsencode(os.readlink(path))
        if not stat.S_ISREG(info.st_mode):
            return b"other\0" + str(stat.S_IFMT(info.st_mode)).encode()
        if info.st_size > MAX_TEXT_BYTES:
            return _large(info.st_size)
        return b"file\0" + _hash(path).digest()
    except OSError as exc:
        return b"unreadable\0" + (exc.strerror or "").encode()


def _held(data: str | bytes) -> bytes:
    """A file held in memory, as ``_content`` gives the same file on disk."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return _large(len(raw)) if len(raw) > MAX_TEXT_BYTES else b"file\0" + hashlib.sha256(raw).digest()


def _large(size: int) -> bytes:
    return b"large\0" + str(size).encode()


def _hash(path: str) -> Any:
    """SHA-256 of a regular file's bytes, read in chunks. O_NONBLOCK: a FIFO put in
    its place after the caller's lstat opens at once, and is refused here."""
    digest = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest


def _frame(digest: Any, data: bytes) -> None:
    digest.update(len(data).to_bytes(8, "big"))
    digest.update(data)


def changed_since(recorded: dict[str, Any], now: dict[str, tuple[int | None, str | None]]) -> list[str]:
    """The runs whose grading.json is not what a benchmark read: ``recorded`` maps
    each run's path to the digest it read (None: no grading.json then), ``now`` to
    the run's iteration and its digest today. A run recorded and gone, or graded
    since, is changed; so is a run new in an iteration the benchmark covered."""
    covered = {now[path][0] for path in recorded if path in now}
    changed = [path for path, digest in recorded.items() if path not in now or now[path][1] != digest]
    changed += [path for path, (iteration, _) in now.items() if path not in recorded and iteration in covered]
    return changed
