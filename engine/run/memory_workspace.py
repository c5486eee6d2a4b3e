"""A whole workspace held in memory: its files as ``{path in the workspace: content}``,
its runs found and named as discovery finds and names them on disk.

For engines that read files where they lie (Ray Data from a folder or an object
store, a queue of uploads): every file of a run, and the ``eval_metadata.json`` of
the folders above it, give the very ``Run`` discovery would give (the same id, the
same metadata and problems), so ``referee.grade`` over these runs writes the bytes
``referee grade`` writes. A run is a folder holding ``outputs/``; the runs come in
discovery's order; eval ids that two folders share are kept apart as discovery does.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from referee.engine.run.identity import METADATA, SOURCE_MAP, MetadataReader, identify, is_run_folder, is_run_like, natural_key
from referee.engine.run.kept_apart import KeptApart, place_of
from referee.engine.run.memory import Content, MemoryRun, held_files
from referee.engine.run.model import JsonFile
from referee.engine.run.reading import NO_FILES, ResponseFiles
from referee.engine.run.safeio import json_file, text_file
from referee.engine.run.workspace import Run

ROOT = "/<memory>"


def run_folders(paths: list[str] | tuple[str, ...] | set[str]) -> list[str]:
    """The run folders among these file paths (each relative to the workspace, POSIX):
    every folder holding ``outputs/``, the outermost one when runs nest."""
    if isinstance(paths, str):  # it would be read as its characters: no run at all
        raise TypeError(f"paths must be a list of paths, not one path: [{paths!r}]")
    found = set()
    for path in paths:
        parts = PurePosixPath(path).parts
        if "outputs" in parts[:-1] and not any(p.startswith(".") or p == "__pycache__" for p in parts):
            found.add("/".join(parts[:parts.index("outputs")]) or ".")
    return sorted(found)


def readers(path: str, runs: list[str] | tuple[str, ...]) -> list[str]:
    """The runs (of ``run_folders``) that read the file at ``path``: the run it lies in,
    or, for an eval_metadata.json above runs, every run below its folder. ``path`` is
    read as ``run_folders`` and ``memory_workspace`` read it (``./a//b`` is ``a/b``)."""
    path = str(PurePosixPath(path))
    inside = [run for run in runs if run == "." or path.startswith(run + "/")]
    if inside:
        return inside[-1:]  # the innermost (a run folder's own files)
    if PurePosixPath(path).name != METADATA:
        return []
    folder = str(PurePosixPath(path).parent)
    return [run for run in runs if folder == "." or run.startswith(folder + "/")]


def files_of(run: str, files: Mapping[str, Content]) -> dict[str, Content]:
    """What a run folder holds, by path relative to it."""
    prefix = "" if run == "." else run + "/"
    return {name[len(prefix):]: data for name, data in files.items() if name.startswith(prefix)}


def memory_workspace(files: Mapping[str, Content], responses: ResponseFiles = NO_FILES) -> list[MemoryRun]:
    """The runs of the workspace whose files are ``files`` (paths relative to it): each
    run's files, and the eval_metadata.json files of the folders above it, must be
    there. A run folder named ``run-<something>`` that is no number is left out, as
    discovery leaves it out."""
    if not isinstance(responses, ResponseFiles):  # it would fail inside each run, naming nothing
        raise TypeError(f"responses must be response_files(response, evals), not {type(responses).__name__}: "
                        f"{responses!r}")
    files = held_files(files)
    reader = _Reader(files)
    runs = []
    for rel in run_folders(list(files)):
        name = PurePosixPath(rel).name
        if is_run_like(name) and not is_run_folder(name):
            continue
        own = files_of(rel, files)
        run_id, metadata, problems = identify(f"{ROOT}/{rel}" if rel != "." else ROOT, rel, reader,
                                              own_metadata=METADATA in own, imported=SOURCE_MAP in own)
        runs.append(MemoryRun(own, run_id, metadata, responses, problems))
    return _kept_apart(sorted(runs, key=run_order))


def run_order(run: Run) -> tuple:
    """A run's place in discovery's order of a workspace's runs."""
    rid = run.id
    iteration = (0, 0) if rid.iteration is None else (1, rid.iteration)
    return iteration, natural_key(rid.eval_id), natural_key(rid.configuration), rid.run_number, natural_key(rid.rel)


def _kept_apart(runs: list[MemoryRun]) -> list[MemoryRun]:
    repeated = KeptApart.of(place_of(run.id) for run in runs)
    for run in runs:
        if run.id.eval_id in repeated:
            run.id = repeated.apply(run.id)
    return sorted(runs, key=run_order) if repeated else runs


class _Reader(MetadataReader):
    """Reads eval_metadata.json from the files in memory instead of the disk."""

    def __init__(self, files: Mapping[str, Content]) -> None:
        super().__init__()
        self._files = files

    def read_metadata(self, folder: Path, report_base: str) -> JsonFile | None:
        rel = PurePosixPath(folder).relative_to(ROOT).as_posix()
        data = self._files.get(METADATA if rel == "." else f"{rel}/{METADATA}")
        if data is None:
            return None
        return json_file(text_file(data.encode("utf-8") if isinstance(data, str) else data, METADATA, report_base),
                         report_base)
