"""Finding the runs of a workspace and loading each one lazily.

A run directory is any directory that holds ``outputs/``. That one rule covers
every layout in use: ``iteration-N/eval-<id>[-name]/<config>/run-<k>/``, the flat
``<config>/outputs`` (run number 1), SkillSentry's ``eval-N/with_skill/outputs``,
the legacy ``<dir>/runs/eval-*/...`` and descriptive eval names without ``eval-``.
Anything else found on the way (stray files, ``run-a``, empty folders, symlinked
folders) is skipped with a warning; nothing in a workspace can crash discovery.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from referee.engine.run.model import JsonFile, Problem, RunId, TextFile, Transcript, UserNotes
from referee.engine.run.safeio import join_report, locate, read_json, read_text, safe_relative
from referee.engine.run.transcript import parse_transcript
from referee.engine.run.user_notes import parse_user_notes

METADATA = "eval_metadata.json"
DEFAULT_CONFIGURATION = "default"  # for layouts with no configuration level (eval-1/outputs)

_RUN = re.compile(r"run[-_]([0-9]{1,9})", re.I)
_RUN_LIKE = re.compile(r"run[-_]", re.I)
_EVAL_NUMBERED = re.compile(r"eval[-_]([0-9]{1,9})(?:[-_](.+))?", re.I | re.S)
_EVAL_NAMED = re.compile(r"eval[-_](.+)", re.I | re.S)
_ITERATION = re.compile(r"iteration[-_]?([0-9]{1,9})", re.I)
_NOT_EVAL = re.compile(r"(?:iteration[-_]?[0-9]{1,9}|runs)", re.I)  # levels above the evals
_STRAY = re.compile(r"(?:eval|run)[-_]", re.I)  # files named like a run or eval folder
_DIGITS = re.compile(r"([0-9]+)")
_UNREAD_LISTING = frozenset({"symlink-escape", "symlink-loop", "broken-symlink", "not-a-file", "unreadable"})


def natural_key(text: str) -> tuple:
    """Sort key that orders embedded numbers by value: eval-2 before eval-10."""
    return tuple((0, int(part), part) if part.isdigit() else (1, part) for part in _DIGITS.split(text) if part)


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


@dataclass(frozen=True)
class _Shape:
    """Which path segments of a run are the eval, the configuration and the run.

    ``run_pos`` is the segment that names the run (None when no folder does);
    ``reading`` says in words how an unusual layout was read (None for the usual ones).
    """

    eval_pos: int
    configuration: str
    run_number: int | None  # None: the run folder's name is not a number (see _run_number)
    iteration: int | None
    run_pos: int | None = None
    reading: str | None = None


def _shape(parts: tuple[str, ...]) -> _Shape:
    run = _RUN.fullmatch(parts[-1])
    config_pos = len(parts) - 2 if run and len(parts) >= 2 else len(parts) - 1
    run_pos = len(parts) - 1 if run else None
    eval_pos = config_pos - 1
    configuration = parts[config_pos]
    reading = None
    if run is None and eval_pos >= 1 and _RUN_LIKE.match(parts[eval_pos]):
        # eval-x/run-<id>/<config>/outputs: the run level sits above the configuration.
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


def _run_number(run_dir: Path, parts: tuple[str, ...], shape: _Shape) -> int:
    """The run's number; a run folder named ``run-<id>`` with a non-numeric id is
    numbered by its place (1-based, natural order) among its eval's run folders, so
    the same folders always get the same numbers."""
    if shape.run_number is not None:
        return shape.run_number
    run_folder = run_dir.parents[len(parts) - 1 - shape.run_pos - 1]
    try:
        with os.scandir(run_folder.parent) as listing:
            names = sorted((e.name for e in listing if _RUN_LIKE.match(e.name)), key=natural_key)
    except OSError:
        return 1
    return names.index(run_folder.name) + 1 if run_folder.name in names else 1


class Run:
    """One run directory; every file is read on first use and may be absent or broken.

    ``path`` is absolute and never written to output; ``id.rel`` (relative to the
    workspace, POSIX) prefixes the path of every problem. Nothing here raises on
    what is on disk: defects become ``problems``.
    """

    def __init__(self, path: Path, run_id: RunId, metadata: dict, problems: tuple[Problem, ...] = ()):
        self.path = path
        self.id = run_id
        self.metadata = metadata
        self._base = run_id.rel
        self._own_problems = list(problems)
        self._outputs: dict[str, TextFile] = {}

    def __repr__(self) -> str:
        return f"Run({self.id.rel!r})"

    @cached_property
    def transcript_file(self) -> TextFile | None:
        """``outputs/transcript.md`` as text (``transcript.md`` in the run dir as a
        fallback), read once: the parser, metrics and claims all use this copy."""
        return self._text("outputs/transcript.md") or self._text("transcript.md")

    @cached_property
    def transcript(self) -> Transcript:
        """The transcript file parsed; empty when there is none."""
        source = self.transcript_file
        if source is None:
            return Transcript()
        if source.text is None:
            return Transcript(problems=source.problems)
        parsed = parse_transcript(source.text, source.path, join_report(self._base, source.path))
        return replace(parsed, problems=source.problems + parsed.problems)

    @cached_property
    def response(self) -> TextFile | None:
        """``outputs/response.md``; undecodable bytes are replaced and reported."""
        return self._text("outputs/response.md")

    @cached_property
    def metrics(self) -> JsonFile | None:
        return read_json(self.path, "outputs/metrics.json", self._base)

    @cached_property
    def timing(self) -> JsonFile | None:
        """``timing.json`` in the run dir (``outputs/timing.json`` as a fallback)."""
        return read_json(self.path, "timing.json", self._base) or read_json(
            self.path, "outputs/timing.json", self._base
        )

    @cached_property
    def user_notes(self) -> UserNotes:
        source = self._text("outputs/user_notes.md")
        if source is None:
            return UserNotes()
        return parse_user_notes(source.text, source.problems)

    def _text(self, rel: str) -> TextFile | None:
        return read_text(self.path, rel, self._base, lossy=True)

    @cached_property
    def _listing(self) -> tuple[str, ...]:
        names = []
        outputs = self.path / "outputs"
        for top, dirs, files in os.walk(outputs):  # never descends into symlinked folders
            dirs.sort()
            rel_top = Path(top).relative_to(outputs).as_posix()
            for name in files:
                rel = name if rel_top == "." else f"{rel_top}/{name}"
                if self._listable(rel):
                    names.append(rel)
        return tuple(sorted(names))

    def _listable(self, rel: str) -> bool:
        found = locate(self.path, f"outputs/{rel}", join_report(self._base, f"outputs/{rel}"))
        unusable = [p for p in found.problems if p.code in _UNREAD_LISTING]
        self._own_problems.extend(unusable)
        return found.exists and not unusable

    def output_files(self) -> list[str]:
        """Files under ``outputs/`` as sorted POSIX paths relative to it.

        Every file counts, the run's own (transcript.md, response.md, ...) too;
        symlinks leaving the run and symlink loops are left out and reported.
        """
        return list(self._listing)

    def read_output(self, rel: str) -> TextFile:
        """Read ``outputs/<rel>`` as text; never raises.

        A path with ``..`` or an absolute path gives ``path-escape``; a missing file
        ``missing`` (not counted among the run's problems); symlink escapes, loops,
        files over the size cap, binary and non-UTF-8 files give text None and a
        problem. The result is cached per path.
        """
        if rel not in self._outputs:
            self._outputs[rel] = self._read_output(rel)
        return self._outputs[rel]

    def _read_output(self, rel: str) -> TextFile:
        safe = safe_relative(rel)
        if safe is None:
            report = join_report(self._base, f"outputs/{rel}")
            problem = Problem("path-escape", report, "path leaves the outputs folder; not read")
            self._own_problems.append(problem)
            return TextFile(f"outputs/{rel}", None, 0, (problem,))
        found = read_text(self.path, f"outputs/{safe}", self._base, lossy=False)
        if found is None:
            report = join_report(self._base, f"outputs/{safe}")
            return TextFile(f"outputs/{safe}", None, 0, (Problem("missing", report, "no such file"),))
        self._own_problems.extend(found.problems)
        return found

    def exists_output(self, rel: str) -> bool:
        """True when ``outputs/<rel>`` is a regular file inside the run (even a huge one)."""
        safe = safe_relative(rel)
        if safe is None:
            return False
        found = locate(self.path, f"outputs/{safe}", join_report(self._base, f"outputs/{safe}"))
        return found.exists and all(p.code == "too-large" for p in found.problems)

    def load(self) -> Run:
        """Read every file of the run now (for ``show`` and for timing); returns self."""
        for name in ("transcript", "response", "metrics", "timing", "user_notes", "_listing"):
            getattr(self, name)
        return self

    def release(self) -> None:
        """Forget what was read, so a graded run holds no parsed files.

        Grading thousands of runs in one process would otherwise keep every parsed
        transcript alive, and the garbage collector would scan them all again and
        again. Anything asked for later is read anew."""
        for name in ("transcript_file", "transcript", "response", "metrics", "timing",
                     "user_notes", "_listing", "_import_warnings"):
            self.__dict__.pop(name, None)
        self._outputs.clear()

    @property
    def problems(self) -> list[Problem]:
        """Every problem met so far (files not yet read add theirs when read), sorted."""
        found = list(self._own_problems)
        loaded = self.__dict__
        if "transcript" in loaded:
            found.extend(self.transcript.problems)
        for name in ("response", "metrics", "timing"):
            if loaded.get(name) is not None:
                found.extend(loaded[name].problems)
        if "user_notes" in loaded:
            found.extend(self.user_notes.problems)
        found.extend(self._import_warnings)
        return sort_problems(found)

    @cached_property
    def _import_warnings(self) -> tuple[Problem, ...]:
        """Import problems, and whether the run is what it seems (engine.run.importers.detect)."""
        from referee.engine.run.importers.detect import run_warnings

        return tuple(run_warnings(self))


def sort_problems(problems) -> list[Problem]:
    """Deduplicated, in a stable order: by path, line, code, message."""
    unique = set(problems)
    return sorted(unique, key=lambda p: (natural_key(p.path), p.line or 0, p.code, p.message))


# --- identity and metadata --------------------------------------------------------------


class _MetadataReader:
    """Reads ``eval_metadata.json`` files, each once per discovery."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[dict, tuple[Problem, ...]]] = {}

    def read(self, folder: Path, report_base: str) -> tuple[dict, tuple[Problem, ...]]:
        if folder not in self._cache:
            self._cache[folder] = self._load(folder, report_base)
        return self._cache[folder]

    def _load(self, folder: Path, report_base: str) -> tuple[dict, tuple[Problem, ...]]:
        found = read_json(folder, METADATA, report_base)
        if found is None:
            return {}, ()
        if found.value is None and found.problems:
            return {}, found.problems
        if not isinstance(found.value, dict):
            report = join_report(report_base, METADATA)
            return {}, found.problems + (Problem("bad-metadata", report, "not a JSON object; ignored"),)
        return found.value, found.problems


def _metadata_text(value) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    text = str(value).strip()
    return text or None


def _build_run(run_dir: Path, rel: str, reader: _MetadataReader, prefix: tuple[str, ...] = ()) -> Run:
    """A Run for ``run_dir``; ``rel`` is "." for a run loaded on its own. ``prefix``:
    the workspace's own folder names from its eval level down (see ``eval_prefix``)."""
    parts, inside = _identity_parts(run_dir, rel, prefix)
    shape = _shape(parts)
    metadata: dict = {}
    problems: list[Problem] = []
    depth = len(parts) - 1
    for pos in range(shape.eval_pos, depth + 1):  # eval level first; the run level wins
        folder = run_dir.parents[depth - pos - 1] if pos < depth else run_dir
        found, found_problems = reader.read(folder, _metadata_base(parts, pos, inside))
        metadata.update(found)
        problems.extend(found_problems)
    folder_id, folder_name = eval_from_folder(parts[shape.eval_pos])
    eval_id = _metadata_text(metadata.get("eval_id")) or folder_id
    eval_name = _metadata_text(metadata.get("eval_name")) or folder_name
    run_id = RunId(rel, eval_id, eval_name, shape.configuration, _run_number(run_dir, parts, shape),
                   shape.iteration, _identity_extra(parts, shape, rel, inside))
    return Run(run_dir, run_id, metadata, tuple(problems))


def _identity_extra(parts: tuple[str, ...], shape: _Shape, rel: str, inside: int) -> dict:
    """``path``: how a run loaded on its own is named in reports (its folders from
    the eval level down, never an absolute path); ``layout``: how an unusual
    layout was read, for ``show``; ``run_label``: a non-numeric run folder's name."""
    extra: dict = {}
    readings = [shape.reading] if shape.reading else []
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


def _identity_parts(run_dir: Path, rel: str, prefix: tuple[str, ...] = ()) -> tuple[tuple[str, ...], int]:
    """The folder names that say which eval, configuration and run this is, and how
    many of the last ones lie inside the workspace (0 for a run loaded on its own)."""
    if rel != ".":
        own = tuple(rel.split("/"))
        if prefix and not any(_EVAL_NAMED.fullmatch(part) for part in own):
            return prefix + own, len(own)
        return own, len(own)
    # A run loaded on its own: its nearest ancestors name it (never written out).
    return tuple(p for p in run_dir.parts[-5:] if p not in ("/", "")) or ("run",), 0


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
    return ()


def _metadata_base(parts: tuple[str, ...], pos: int, inside: int) -> str:
    """Where a metadata file is reported: relative to the workspace (or to a lone run);
    folders above the workspace as ``..``."""
    root = len(parts) - 1 - inside  # index of the workspace folder itself
    if pos > root:
        return "/".join(parts[root + 1: pos + 1])
    return "/".join([".."] * (root - pos))


def load_run(run_dir: Path, workspace: Path | None = None) -> Run:
    """Load one run directory; ids come from metadata, else from the folder names.

    With ``workspace`` the run's ``rel`` and problem paths are relative to it;
    without, ``rel`` is "." and problem paths are relative to the run directory.
    """
    run_dir = Path(os.path.abspath(run_dir))
    rel = "."
    if workspace is not None:
        rel = run_dir.relative_to(Path(os.path.abspath(workspace))).as_posix()
    return _build_run(run_dir, rel, _MetadataReader())


# --- discovery --------------------------------------------------------------------------


@dataclass
class Discovery:
    """The runs of a workspace in natural order, and the layout problems met on the way.

    Problems of a run's own files (metadata included) are on ``Run.problems``.
    """

    runs: list[Run] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def discover(workspace: Path) -> Discovery:
    """Find every run under ``workspace`` (the workspace itself may be a run)."""
    root = Path(os.path.abspath(workspace))
    if not root.is_dir():
        return Discovery([], [Problem("not-a-directory", ".", "the workspace is not a directory")])
    walker = _Walker(root)
    walker.visit(root, ())
    runs = sorted(walker.runs, key=_run_order)
    return Discovery(runs, sort_problems(walker.problems))


def _run_order(run: Run) -> tuple:
    rid = run.id
    iteration = (0, 0) if rid.iteration is None else (1, rid.iteration)
    return iteration, natural_key(rid.eval_id), natural_key(rid.configuration), rid.run_number, natural_key(rid.rel)


class _Walker:
    """Depth-first walk that never follows symlinked folders (no loops, no escapes)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runs: list[Run] = []
        self.problems: list[Problem] = []
        self.metadata = _MetadataReader()
        self.prefix = eval_prefix(root)

    def visit(self, folder: Path, parts: tuple[str, ...]) -> None:
        rel = "/".join(parts) or "."
        entries = self._entries(folder, rel)
        if entries is None:
            return
        outputs = entries.get("outputs")
        if outputs is not None and outputs.is_dir(follow_symlinks=False):
            self._add_run(folder, parts, rel)
            return
        if not entries:
            self._warn("empty-dir", rel, "empty folder; skipped")
            return
        before = len(self.runs)
        for name in sorted(entries, key=natural_key):
            self._visit_entry(entries[name], parts + (name,))
        self._check_found(parts, rel, before)

    def _entries(self, folder: Path, rel: str) -> dict[str, os.DirEntry] | None:
        try:
            with os.scandir(folder) as listing:
                return {e.name: e for e in listing if not e.name.startswith(".") and e.name != "__pycache__"}
        except OSError as exc:
            self._warn("unreadable", rel, f"cannot list folder: {exc.strerror or exc}")
            return None

    def _add_run(self, folder: Path, parts: tuple[str, ...], rel: str) -> None:
        name = parts[-1] if parts else folder.name
        if _RUN_LIKE.match(name) and not _RUN.fullmatch(name):
            self._warn("bad-run-name", rel, "run folder name is not run-<number>; skipped")
            return
        self.runs.append(_build_run(folder, rel, self.metadata, self.prefix))

    def _visit_entry(self, entry: os.DirEntry, parts: tuple[str, ...]) -> None:
        rel = "/".join(parts)
        if entry.is_symlink():
            if entry.is_dir():
                self._warn("symlink-skipped", rel, "symlinked folder; not followed")
            return
        if entry.is_dir(follow_symlinks=False):
            self.visit(Path(entry.path), parts)
        elif _STRAY.match(entry.name) and entry.name != METADATA:
            self._warn("stray-file", rel, "file where a run or eval folder was expected; skipped")

    def _check_found(self, parts: tuple[str, ...], rel: str, before: int) -> None:
        if len(self.runs) > before or not parts:
            return
        name = parts[-1]
        if _RUN.fullmatch(name):
            self._warn("no-outputs", rel, "run folder has no outputs/ folder; skipped")
        elif _RUN_LIKE.match(name):
            self._warn("bad-run-name", rel, "run folder name is not run-<number>; skipped")
        elif _EVAL_NAMED.fullmatch(name):
            self._warn("no-runs", rel, "no run (a folder holding outputs/) below this eval folder")

    def _warn(self, code: str, rel: str, message: str) -> None:
        self.problems.append(Problem(code, rel, message))
