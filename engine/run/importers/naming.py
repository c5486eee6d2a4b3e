"""Folder names for imported runs: from the sources alone, and never two runs with one identity.

By default each source is its own eval, its folder named after the source file's
stem (``out/<stem>``; ``<stem>-<k>`` for the k-th conversation of a source that
holds several). Names are made safe (``[A-Za-z0-9._-]``), so nothing a file name
holds (ESC, OSC, a line break) reaches a folder or the terminal. Sources whose
stems are the same (``a/transcript.jsonl``, ``b/transcript.jsonl``) take their
folders' names (``a``, ``b``), as many folders up as it takes to tell them apart.
A name that an earlier import of another source holds (sources imported one at a
time, all named ``transcript.jsonl``) is never taken over: the source is named after
its folders instead, as many as it takes, else numbered, and a note says so. Only an
import of the same source (the same bytes) replaces its run.

A stem that names a run (``run-01``) is a run folder: its number is read as
discovery reads it (1), and a number already taken gets the next free one, said
in a note (``run-1``, ``run-01`` and ``run-001`` are runs 1, 2 and 3, never three
runs 1). A stem that starts like a run folder but names none (``run-a``), which
discovery would skip, is written ``eval-<stem>``, and so is a name discovery reads
otherwise (``outputs``, ``__pycache__``: ``_READ_OTHERWISE``).

With ``--eval ID`` the conversations are runs ``out/eval-ID/CONFIG/run-k``,
numbered on from the runs already there: importing twice adds runs, never
overwrites one.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from referee.engine.run.identity import eval_from_folder, is_run_folder, is_run_like

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_NUMBER = re.compile(r"[0-9]+$")
# Folder names that discovery never reads as a run named so: a folder holding
# ``outputs/`` is a run (``out/outputs/`` would make the workspace itself the run, and
# every run beside it a run inside a run), and ``__pycache__`` is not walked.
_READ_OTHERWISE = frozenset({"outputs", "__pycache__"})


def safe(name: str, empty: str = "x") -> str:
    """``name`` as a folder name: unsafe characters made ``-``; ``empty`` when nothing is left."""
    return _UNSAFE.sub("-", name).strip("-.") or empty


class Namer:
    """Names the run folders of one import, conversation by conversation, as they
    are read: ``paths`` are all its sources (a stem shared by two of them is known
    before the first is named); ``notes`` says which names were changed."""

    def __init__(self, paths: list[Path]) -> None:
        self.bases = _bases(sorted(set(paths), key=str))
        self.names: list[str] = []
        self.numbers: set[int] = set()
        self.notes: list[str] = []

    def name(self, path: Path, number: int | None, held: Callable[[str], bool] = lambda name: False) -> str:
        """The folder for the conversation ``number`` (None: the only one) of ``path``;
        ``held(name)`` says whether an earlier import of another source holds a name."""
        wanted = self.bases[path] if number is None else f"{self.bases[path]}-{number}"
        if (is_run_like(wanted) and not is_run_folder(wanted)) or wanted in _READ_OTHERWISE:
            wanted = f"eval-{wanted}"
        if is_run_folder(wanted):
            name = _free_run(wanted, self.numbers)
            while held(name):
                name = _free_run(name, self.numbers)
        else:
            name = _free(wanted, self.names)
            if held(name):
                name = next(n for n in _elsewhere(wanted, path, number) if n not in self.names and not held(n))
        if name != wanted:
            why = "holds the import of another source" if held(wanted) else "names a run already imported"
            self.notes.append(f"{path.name}: written as {name}, since {wanted} {why}")
        self.names.append(name)
        return name


def run_names(sources: list[tuple[Path, int | None]]) -> tuple[list[str], list[str]]:
    """A folder name per conversation, given as (its source's path, its number in a
    source holding several, or None), and the notes about names changed."""
    namer = Namer([path for path, _ in sources])
    return [namer.name(path, number) for path, number in sources], namer.notes


def _bases(paths: list[Path]) -> dict[Path, str]:
    """Each source's base name: its stem, or (stems shared) its folders' names."""
    by_stem: dict[str, list[Path]] = {}
    for path in paths:
        by_stem.setdefault(safe(path.stem, "run"), []).append(path)
    bases: dict[Path, str] = {}
    for stem, group in by_stem.items():
        if len(group) == 1:
            bases[group[0]] = stem
            continue
        for path, name in zip(group, _by_folders(group, stem)):
            bases[path] = name
    return bases


def _by_folders(group: list[Path], stem: str) -> list[str]:
    """Names for sources sharing a stem: their parent folders' names, going up
    until they differ (the stem when no folder tells them apart)."""
    full = [Path(os.path.abspath(path)).parent.parts[1:] for path in group]
    for depth in range(1, max(len(parts) for parts in full) + 1):
        names = ["-".join(safe(p) for p in parts[-depth:]) or stem for parts in full]
        if len(set(names)) == len(names):
            return names
    return [stem] * len(group)


def _free(wanted: str, taken: list[str]) -> str:
    name, n = wanted, 2
    while name in taken:
        name, n = f"{wanted}-{n}", n + 1
    return name


def _elsewhere(wanted: str, path: Path, number: int | None) -> Iterator[str]:
    """The names to try for a source whose wanted name an import of another source
    holds: its folders' names (one level, then more), then the wanted one numbered."""
    parts = [safe(p) for p in Path(os.path.abspath(path)).parent.parts[1:]]
    for depth in range(1, len(parts) + 1):
        base = "-".join(parts[-depth:])
        name = base if number is None else f"{base}-{number}"
        if not is_run_like(name) and name not in _READ_OTHERWISE:  # a folder named like a run would be read as one
            yield name
    yield from (f"{wanted}-{n}" for n in itertools.count(2))


def _number(name: str) -> int:
    """The run number of a run folder's name (``run-01``: 1)."""
    found = _NUMBER.search(name)
    return int(found.group()) if found is not None else 0


def _free_run(wanted: str, numbers: set[int]) -> str:
    number = _number(wanted)
    while number in numbers:
        number += 1
    numbers.add(number)
    return f"run-{number}"


class BadName(ValueError):
    """An eval id or configuration that no folder name holds as it is."""


def eval_run_names(eval_id: str, configuration: str, out: Path) -> Iterator[str]:
    """``eval-ID/CONFIG/run-k``, one per conversation, k on from the runs already in ``out``.
    BadName for an id or configuration that ``safe`` would change: its folder would be
    read back as another eval (``a b`` as ``a-b``, ``é`` as ``x``, two ids as one), and
    the rules of the eval asked for would apply to none of its runs; and for a number
    written with leading zeros (``01`` is read back as 1). ``3-book-flight`` is taken as
    skill-creator's folders read: eval 3, named book-flight."""
    for what, name in (("eval id", eval_id), ("configuration", configuration)):
        if safe(name) != name:  # named by what it is: import says --eval, grade --as-eval
            raise BadName(f"{what} {name!r}: an eval id and a configuration are folder names, written as "
                          f"they are (letters, digits, '.', '_' and '-', not at either end); this one would be "
                          f"read back as {safe(name)!r}")
    read_back, named = eval_from_folder(f"eval-{eval_id}")
    if not named and read_back != eval_id:  # 01 or 007: the folder is eval 1's, or 7's
        raise BadName(f"eval id {eval_id!r}: its folder eval-{eval_id} would be read back as eval {read_back}, "
                      f"and the rules of eval {eval_id!r} would apply to none of its runs; give it as {read_back!r}")
    folder = f"eval-{eval_id}/{configuration}"
    return (f"{folder}/run-{k}" for k in itertools.count(1 + max(_existing_runs(out / folder), default=0)))


def _existing_runs(folder: Path) -> list[int]:
    try:
        with os.scandir(folder) as listing:
            return [_number(e.name) for e in listing if is_run_folder(e.name)]
    except OSError:
        return []
