"""Which eval, configuration and run a run directory is, read from its folders.

The layouts: ``iteration-N/eval-<id>[-name]/<config>/run-<k>/``, the flat
``eval-<id>/<config>/`` (run 1), ``eval-<id>/outputs`` (no configuration level),
run-then-configuration nesting ``eval-<id>/run-<x>/<config>/``, the legacy
``runs/`` level, and descriptive eval names. ``eval_metadata.json`` at the eval
or run level wins over the folder names (``eval_id``; ``eval_name``, or ``name`` as
some harnesses write it). A workspace given below its eval folder
borrows the eval from the folder names above it (``eval_prefix``); how an unusual
layout was read is kept in ``RunId.extra["layout"]`` for ``show``.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from referee.engine.run.model import JsonFile, Problem, RunId
from referee.engine.run.safeio import join_report, read_json

METADATA = "eval_metadata.json"
SOURCE_MAP = "source_map.json"  # what referee import writes into every run folder
DEFAULT_CONFIGURATION = "default"  # for layouts with no configuration level (eval-1/outputs)

RUN_DIGITS = 9  # run-<n> is a run folder up to nine digits: a longer number names none
_RUN = re.compile(rf"run[-_]([0-9]{{1,{RUN_DIGITS}}})", re.I)
_RUN_LIKE = re.compile(r"run[-_]", re.I)
_EVAL_NUMBERED = re.compile(r"eval[-_]([0-9]{1,9})(?:[-_](.+))?", re.I | re.S)
_EVAL_NAMED = re.compile(r"eval[-_](.+)", re.I | re.S)
# iteration-2, iter-2 as some harnesses write it, and iteration-10-gpt-5.3-codex: a label
# after the number (the model or setup that iteration ran with) leaves it iteration 10.
_ITERATION = re.compile(r"iter(?:ation)?[-_]?([0-9]{1,9})(?:[-_].*)?", re.I | re.S)
_NOT_EVAL = re.compile(r"(?:iter(?:ation)?[-_]?[0-9]{1,9}(?:[-_].*)?|runs)", re.I | re.S)  # levels above the evals
_DIGITS = re.compile(r"([0-9]+)")


def natural_key(text: str) -> tuple:
    """Sort key that orders embedded numbers by value: eval-2 before eval-10. A number
    is compared by its digits, not by ``int()``, which refuses a run of more than 4,300
    of them (an eval id in eval_metadata.json may be any text): without its leading
    zeros, a shorter run of digits is the smaller number, and one as long compares
    as text. The parts ``split`` puts at odd places are its group's: the numbers."""
    parts = _DIGITS.split(text)
    return tuple(_number_key(part) if index % 2 else (1, part) for index, part in enumerate(parts) if part)


def _number_key(digits: str) -> tuple:
    """A run of digits as ``natural_key`` compares it: its value's length, then its value."""
    value = digits.lstrip("0")
    return 0, len(value), value, digits


@lru_cache(maxsize=1024)  # asked once per run, for the few names of a workspace's eval folders
def eval_from_folder(name: str) -> tuple[str, str | None]:
    """Eval id and name from a folder: ``eval-3-sales`` → ("3", "sales"); ``eval-sales``
    → ("sales", None); a descriptive ``sales-summary`` → ("sales-summary", None)."""
    numbered = _EVAL_NUMBERED.fullmatch(name)
    if numbered is not None:
        return str(int(numbered.group(1))), numbered.group(2)
    named = _EVAL_NAMED.fullmatch(name)
    if named is not None:
        return named.group(1), None
    return name, None


class _Shape(NamedTuple):
    """Which path segments of a run are the eval, the configuration and the run.

    ``run_pos`` is the segment that names the run (None when no folder does);
    ``reading`` says in words how an unusual layout was read (None for the usual ones).
    A named tuple, not a frozen dataclass: one is made per run identified, and a
    tuple is made in a third of the time.
    """

    eval_pos: int
    configuration: str
    run_number: int | None  # None: the run folder's name is not a number (see _run_number)
    iteration: int | None
    run_pos: int | None = None
    reading: str | None = None


def _shape(parts: tuple[str, ...]) -> _Shape:
    run = _RUN.fullmatch(parts[-1])
    if run is None:
        return _read_shape(parts)
    # Every run-<n> below the same folders is read the same way but for its number
    # (see _read_shape): the folders above it are read once, not once per run.
    eval_pos, configuration, iteration = _above_run(parts[:-1])
    return _Shape(eval_pos, configuration, int(run.group(1)), iteration, len(parts) - 1)


@lru_cache(maxsize=1024)
def _above_run(parent: tuple[str, ...]) -> tuple[int, str, int | None]:
    """The eval position, configuration and iteration of a run folder ``run-<n>`` below ``parent``."""
    shape = _read_shape(parent + ("run-1",))
    return shape.eval_pos, shape.configuration, shape.iteration


def _read_shape(parts: tuple[str, ...]) -> _Shape:
    run = _RUN.fullmatch(parts[-1])
    config_pos = len(parts) - 2 if run and len(parts) >= 2 else len(parts) - 1
    run_pos = len(parts) - 1 if run else None
    eval_pos = config_pos - 1
    configuration = parts[config_pos]
    reading = None
    if (run is None and eval_pos >= 1 and _RUN_LIKE.match(parts[eval_pos])
            and not _NOT_EVAL.fullmatch(parts[eval_pos - 1])):
        # eval-x/run-<id>/<config>/outputs: the run level sits above the configuration.
        # Right below an iteration (or runs/) there is no eval folder for it to sit in:
        # there ``run-unit-tests`` is an eval's descriptive name, as skill-creator asks.
        run_pos, eval_pos = eval_pos, eval_pos - 1
        reading = (f"run-then-configuration nesting: eval folder {parts[eval_pos]!r}, "
                   f"run folder {parts[run_pos]!r}, configuration folder {configuration!r}")
    looks_eval = _EVAL_NAMED.fullmatch(configuration) is not None
    if looks_eval or eval_pos < 0 or _NOT_EVAL.fullmatch(parts[eval_pos]):
        eval_pos, configuration = config_pos, DEFAULT_CONFIGURATION
        if run_pos is not None and run_pos < eval_pos:
            run_pos = None
    iteration = None
    for part in parts[:eval_pos]:
        found = _ITERATION.fullmatch(part)
        if found is not None:
            iteration = int(found.group(1))
    number = _RUN.fullmatch(parts[run_pos]) if run_pos is not None else None
    run_number = int(number.group(1)) if number else (None if run_pos is not None else 1)
    return _Shape(eval_pos, configuration, run_number, iteration, run_pos, reading)


def _run_number(run_dir: Path | str, parts: tuple[str, ...], shape: _Shape) -> int:
    """The run's number; a run folder named ``run-<id>`` with a non-numeric id is
    numbered by its place (1-based, natural order) among its eval's run folders, so
    the same folders always get the same numbers."""
    if shape.run_number is not None:
        return shape.run_number
    assert shape.run_pos is not None  # the number is unknown only when a folder names the run
    run_folder = _path(run_dir).parents[len(parts) - 1 - shape.run_pos - 1]
    try:
        with os.scandir(run_folder.parent) as listing:
            names = sorted((e.name for e in listing if _RUN_LIKE.match(e.name)), key=natural_key)
    except OSError:
        return 1
    return names.index(run_folder.name) + 1 if run_folder.name in names else 1


def _path(folder: Path | str) -> Path:
    return folder if isinstance(folder, Path) else Path(folder)


class MetadataReader:
    """Reads ``eval_metadata.json`` files: a folder shared by several runs (an eval,
    a configuration) once per discovery, a run's own folder each time it is asked.

    A discovery keeps its reader for as long as its runs are built (``RunList``):
    caching every run's own folder would make that memory grow with the runs."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[dict, tuple[Problem, ...]]] = {}
        # The shared levels of a run merged, per parent folder and number of levels:
        # every run in a configuration folder needs the same merge (see ``shared``).
        self._merged: dict[tuple[str, int], tuple[dict, tuple[Problem, ...]]] = {}

    def read(self, folder: Path, report_base: str, shared: bool = True) -> tuple[dict, tuple[Problem, ...]]:
        """The folder's metadata and its problems; ``shared`` is False for a run's own folder."""
        if not shared:
            return self._load(folder, report_base)
        if folder not in self._cache:
            self._cache[folder] = self._load(folder, report_base)
        return self._cache[folder]

    def shared(self, run_dir: Path | str, parts: tuple[str, ...], eval_pos: int,
               inside: int) -> tuple[dict, tuple[Problem, ...]]:
        """The metadata of the folders above ``run_dir`` from the eval level down
        (``parts[eval_pos:-1]``) merged, the lower level winning, and their problems.

        Each folder is still read through ``read`` (once per reader); the merge is
        kept per parent folder, so the runs below it skip building their parents'
        Paths and hashing them. The dict returned is shared: copy it to change it."""
        levels = len(parts) - 1 - eval_pos
        if levels <= 0:
            return {}, ()
        key = (os.path.dirname(os.fspath(run_dir)), levels)
        merged = self._merged.get(key)
        if merged is None:
            merged = self._merged[key] = self._merge(run_dir, parts, eval_pos, inside)
        return merged

    def _merge(self, run_dir: Path | str, parts: tuple[str, ...], eval_pos: int,
               inside: int) -> tuple[dict, tuple[Problem, ...]]:
        metadata: dict = {}
        problems: list[Problem] = []
        depth = len(parts) - 1
        above = _path(run_dir).parents
        for pos in range(eval_pos, depth):  # eval level first; lower levels win
            found, found_problems = self.read(above[depth - pos - 1], _metadata_base(parts, pos, inside))
            metadata.update(found)
            problems.extend(found_problems)
        return metadata, tuple(problems)

    def _load(self, folder: Path, report_base: str) -> tuple[dict, tuple[Problem, ...]]:
        found = self.read_metadata(folder, report_base)
        if found is None:
            return {}, ()
        if found.value is None and found.problems:
            return {}, found.problems
        if not isinstance(found.value, dict):
            report = join_report(report_base, METADATA)
            return {}, found.problems + (Problem("bad-metadata", report, "not a JSON object; ignored"),)
        return found.value, found.problems


    def read_metadata(self, folder: Path, report_base: str) -> JsonFile | None:
        """``folder``'s eval_metadata.json, read; None when there is none. Where the
        files come from: a folder on disk here (``memory_workspace`` reads a dict)."""
        return read_json(folder, METADATA, report_base)


def _metadata_text(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    text = str(value).strip()
    return text or None


def _identity_extra(parts: tuple[str, ...], shape: _Shape, rel: str, inside: int) -> dict:
    """``path``: how a run loaded on its own is named in reports (its folders from
    the eval level down, never an absolute path); ``layout``: how an unusual
    layout was read, for ``show``; ``run_label``: a non-numeric run folder's name;
    ``folder``: the folders of the workspace above the eval's (iteration and
    ``runs`` levels left out), and ``eval_folder``: the eval's own folder, which
    keep apart evals that share an id (``engine.run.kept_apart``)."""
    extra: dict = {}
    readings = [shape.reading] if shape.reading else []
    if rel != ".":
        above = [part for part in parts[len(parts) - inside:shape.eval_pos] if not _NOT_EVAL.fullmatch(part)]
        if above:
            extra["folder"] = "/".join(above)
        if shape.eval_pos != shape.run_pos:
            # A run-<n> folder read as its own eval lies right in the workspace: the
            # workspace holds its eval, and its siblings are runs of that eval, not
            # other eval folders giving the same id (which ``kept_apart`` keeps apart).
            extra["eval_folder"] = parts[shape.eval_pos]
    if rel == ".":
        extra["path"] = "/".join(parts[shape.eval_pos:])
    elif inside < len(parts):
        readings.append(f"the workspace given is inside eval folder {parts[shape.eval_pos]!r}: "
                        "the eval is read from the folder names above it")
    if shape.run_pos is not None and shape.run_number is None:
        extra["run_label"] = parts[shape.run_pos]
        readings.append(f"run folder {parts[shape.run_pos]!r} has no number: numbered by its place "
                        "among the eval's run folders")
    if readings:
        extra["layout"] = "; ".join(readings)
    return extra


def report_path(run_id: RunId) -> str:
    """The run's name in reports: its place in the workspace, or for a run graded on
    its own, its folders from the eval level down (never ".", never absolute)."""
    return run_id.extra.get("path") or run_id.rel


def _identity_parts(run_dir: Path | str, rel: str, prefix: tuple[str, ...] = ()) -> tuple[tuple[str, ...], int]:
    """The folder names that say which eval, configuration and run this is, and how
    many of the last ones lie inside the workspace (0 for a run loaded on its own)."""
    if rel != ".":
        own = tuple(rel.split("/"))
        if prefix and not any(_EVAL_NAMED.fullmatch(part) for part in own):
            return prefix + own, len(own)
        return own, len(own)
    # A run loaded on its own: its nearest ancestors name it (never written out).
    return tuple(p for p in _path(run_dir).parts[-5:] if p not in ("/", "")) or ("run",), 0


def eval_prefix(root: Path) -> tuple[str, ...]:
    """When ``root`` lies inside an eval folder (``eval-1``, ``eval-1/with_skill``,
    ``eval-x/run-7``), that folder's name and the ones below it down to ``root``:
    runs found below are then read as that eval's, not as evals named after a
    configuration. Empty otherwise. Only the eval-named folder and at most two
    levels below it are considered; nothing above is ever written out."""
    names = [p for p in root.parts[-3:] if p not in ("/", "")]
    for start, name in enumerate(names):
        if _EVAL_NAMED.fullmatch(name):
            return tuple(names[start:])
    return _descriptive_eval_prefix(root)


def _descriptive_eval_prefix(root: Path) -> tuple[str, ...]:
    """``eval_prefix`` for an eval folder named descriptively, as skill-creator asks
    (``summarize-report``): no name says it is one, the eval_metadata.json it holds
    does. Read from the names alone, its configurations would be taken for evals.
    ``root`` or its parent (``summarize-report/with_skill``) may be that folder; a
    folder that is itself a run, or an iteration or ``runs`` level, is none. Without
    metadata, ``run-<n>`` folders right inside ``root``, one or two levels below an
    iteration (or ``runs``) level, say that it is a configuration of an eval, or an
    eval without one: it is read from that level down, as each of its runs given
    alone is, not each run as an eval of its own; right below such a level, folders
    of configurations (holding ``outputs/`` or ``run-<n>`` folders) say that ``root``
    is their eval. Names above that level, which vary with where the workspace lies,
    are never read."""
    if os.path.isdir(os.path.join(root, "outputs")) or _NOT_EVAL.fullmatch(root.name):
        return ()
    for above, folder in enumerate((root, root.parent)):
        if folder == folder.parent or _NOT_EVAL.fullmatch(folder.name):
            break
        if os.path.isfile(os.path.join(folder, METADATA)):
            return (folder.name,) + ((root.name,) if above else ())
    for level in (root.parent, root.parent.parent):
        if _NOT_EVAL.fullmatch(level.name):
            # Right below an iteration, only evals lie: one whose folders are
            # configurations (``expense draft/with_skill/outputs`` or ``.../run-1``) is one.
            held = _holds_run_folder(root) or (level == root.parent and _holds_configuration(root))
            return tuple(root.relative_to(level.parent).parts) if held else ()
    return ()


def _holds_configuration(folder: Path) -> bool:
    """Whether a folder of ``folder`` is a configuration: it holds ``outputs/`` (the
    flat layout) or ``run-<n>`` folders."""
    try:
        with os.scandir(folder) as listing:
            inner = [entry.path for entry in listing if entry.is_dir(follow_symlinks=False)]
    except OSError:
        return False
    return any(os.path.isdir(os.path.join(path, "outputs")) or _holds_run_folder(Path(path)) for path in inner)


def _holds_run_folder(folder: Path) -> bool:
    try:
        with os.scandir(folder) as listing:
            return any(is_run_folder(entry.name) and entry.is_dir(follow_symlinks=False) for entry in listing)
    except OSError:
        return False


def _metadata_base(parts: tuple[str, ...], pos: int, inside: int) -> str:
    """Where a metadata file is reported: relative to the workspace (or to a lone run);
    folders above the workspace as ``..``."""
    root = len(parts) - 1 - inside  # index of the workspace folder itself
    if pos > root:
        return "/".join(parts[root + 1: pos + 1])
    return "/".join([".."] * (root - pos))


def identify(run_dir: Path | str, rel: str, reader: MetadataReader, prefix: tuple[str, ...] = (),
             own_metadata: bool = True, imported: bool | None = None) -> tuple[RunId, dict, tuple[Problem, ...]]:
    """The run's id, its merged metadata and the metadata files' problems. ``rel`` is
    "." for a run loaded on its own; ``prefix``: see ``eval_prefix``. ``own_metadata``
    False says the run's folder holds no ``eval_metadata.json`` (its listing was just
    read), which spares looking for one; ``imported`` says likewise whether it holds
    a ``source_map.json`` (None: look when it matters). ``run_dir`` may be a plain
    string: discovery identifies thousands of runs, and most need no Path at all."""
    parts, inside = _identity_parts(run_dir, rel, prefix)
    shape = _own_eval(run_dir, parts, _shape(parts), imported)
    shared, shared_problems = reader.shared(run_dir, parts, shape.eval_pos, inside)
    own: dict = {}
    own_problems: tuple[Problem, ...] = ()
    if own_metadata:
        own, own_problems = reader.read(_path(run_dir), _metadata_base(parts, len(parts) - 1, inside), shared=False)
    metadata = {**shared, **own}  # the run level wins over the levels above it
    folder_id, folder_name = eval_from_folder(parts[shape.eval_pos])
    eval_id = _metadata_text(metadata.get("eval_id")) or folder_id
    eval_name = _metadata_text(metadata.get("eval_name")) or _metadata_text(metadata.get("name")) or folder_name
    run_id = RunId(rel, eval_id, eval_name, shape.configuration, _run_number(run_dir, parts, shape),
                   shape.iteration, _identity_extra(parts, shape, rel, inside))
    return run_id, metadata, shared_problems + own_problems


def _own_eval(run_dir: Path | str, parts: tuple[str, ...], shape: _Shape, imported: bool | None) -> _Shape:
    """A run folder ``referee import`` wrote under its own name (``out/<stem>``, it
    holds ``source_map.json``) is its own eval, with no configuration level, however
    it is reached: from the folder it was imported into, from one above it, or on
    its own. Read from the folders alone, the name above it would be taken for the
    eval and its own for the configuration when it is not at the top."""
    last = len(parts) - 1
    if shape.run_pos is not None or shape.eval_pos == last:
        return shape  # named run-<n>, or already its own eval
    if imported is None:
        imported = os.path.lexists(os.path.join(os.fspath(run_dir), SOURCE_MAP))
    return shape._replace(eval_pos=last, configuration=DEFAULT_CONFIGURATION) if imported else shape


def is_run_folder(name: str) -> bool:
    """``run-<number>``."""
    return _RUN.fullmatch(name) is not None


def is_run_like(name: str) -> bool:
    """Starts like a run folder (``run-``, ``run_``), numbered or not."""
    return _RUN_LIKE.match(name) is not None


def is_eval_folder(name: str) -> bool:
    """``eval-<anything>``."""
    return _EVAL_NAMED.fullmatch(name) is not None
