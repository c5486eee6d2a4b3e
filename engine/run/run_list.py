"""The runs a discovery found, each built only when it is asked for (``RunList``), and
the folder of a run in its workspace (``run_folder``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import overload

from referee.engine.run.identity import MetadataReader
from referee.engine.run.kept_apart import KeptApart
from referee.engine.run.reading import NO_FILES, ResponseFiles
from referee.engine.run.workspace import Run, _build_run


class RunList(Sequence[Run]):
    """The runs of a discovery, in order, each built when it is asked for.

    Grading 10,000 runs must not hold 10,000 ``Run`` objects (their paths, ids and
    metadata) from discovery to the end: this list keeps, per run, only its folder
    relative to the workspace (``rel``), and what all runs share (the workspace, the
    metadata reader, the eval prefix, the eval ids kept apart by folder). ``runs[i]``,
    iteration and slicing build a
    new ``Run`` each time, through ``identify`` as discovery did, so a run is the same
    whichever way it is reached; keep the Run to keep what it has read. A slice is a
    plain list of Runs (worker processes receive those).
    """

    __slots__ = ("_root", "_rels", "_reader", "_prefix", "_responses", "_repeated")

    def __init__(self, root: Path, rels: Sequence[str], reader: MetadataReader,
                 prefix: tuple[str, ...] = (), responses: ResponseFiles = NO_FILES,
                 repeated: KeptApart = KeptApart()) -> None:
        self._root = root
        self._rels = tuple(rels)
        self._reader = reader
        self._prefix = prefix
        self._responses = responses
        self._repeated = repeated

    @property
    def root(self) -> Path:
        """The workspace (absolute): every run's folder is ``root`` joined with its ``rel``."""
        return self._root

    @property
    def rels(self) -> tuple[str, ...]:
        """Each run's folder relative to the workspace (POSIX, "." for the workspace itself), in order."""
        return self._rels

    def __len__(self) -> int:
        return len(self._rels)

    @overload
    def __getitem__(self, index: int) -> Run: ...
    @overload
    def __getitem__(self, index: slice) -> list[Run]: ...

    def __getitem__(self, index: int | slice) -> Run | list[Run]:
        if isinstance(index, slice):
            return [self._build(rel) for rel in self._rels[index]]
        return self._build(self._rels[index])

    def __iter__(self) -> Iterator[Run]:
        for rel in self._rels:
            yield self._build(rel)

    def subset(self, numbers: Iterable[int]) -> RunList:
        """The runs at ``numbers`` (in that order), still built only when asked for."""
        return RunList(self._root, [self._rels[n] for n in numbers], self._reader, self._prefix, self._responses,
                       self._repeated)

    def __reduce__(self):
        return RunList, (self._root, self._rels, self._reader, self._prefix, self._responses, self._repeated)

    def __repr__(self) -> str:
        return f"RunList({len(self._rels)} runs under {self._root.name!r})"

    def _build(self, rel: str) -> Run:
        return _build_run(run_folder(self._root, rel), rel, self._reader, self._prefix, self._responses,
                          self._repeated)


def run_folder(root: Path, rel: str) -> Path:
    """The folder of the run at ``rel`` (as ``Run.rel`` gives it) in the workspace ``root``."""
    return root if rel == "." else root.joinpath(*rel.split("/"))
