"""Where a GitHub annotation lands: a file by its path from the repository root, and a line.

GitHub puts ``::error file=PATH,line=N::`` on PATH only when PATH, taken from the
root of the checkout, is a file there. So every path is made relative to ``root``
(the folder the command ran in, which is the repository root in CI, or
``report --root``), and a place is given only when the file is there:

- evidence in the run folder (``outputs/transcript.md:14``): that file;
- evidence of an imported run names its source (``session.jsonl:42``), which is not
  in the run folder: the file of that name in a ``--sources`` folder, when it holds
  the bytes the run was imported from (the source map's ``origin``);
- else the assertion's rules line, when ``--rules`` names the rules file whose name
  and digest ``rules_location`` records (``booking.rules@c80e3172:7:1``); a file of
  that name with other text is not the one that graded, and is not pointed at.

A place that cannot be found is left out (the annotation then names no file)
rather than guessed: an annotation on a file that does not exist is lost.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping, Sequence

from referee.engine.report.collect import GradedRun
from referee.engine.report.models import Expectation
from referee.engine.text import ascii_digits


@dataclass(frozen=True)
class Places:
    root: Path
    rules: dict[str, Path] = field(default_factory=dict)  # "booking.rules@c80e3172" -> the file
    sources: tuple[Path, ...] = ()  # folders that hold imported runs' source files
    # each source file's SHA-256, read once however many annotations name it
    digests: dict[Path, str | None] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, root: Path, rules: Mapping[Path, str] = MappingProxyType({}),
           source_dirs: Sequence[Path] = ()) -> Places:
        """Places from ``root``; each rules file (its path and its text, read as grade
        reads it, by the one caller that refuses one it cannot read) is known by the
        name and digest ``referee grade`` records for it."""
        from referee.engine.decision.provenance import rules_name

        named = {rules_name(str(path), text): path for path, text in rules.items()}
        return cls(root, named, tuple(source_dirs))

    def of_item(self, run: GradedRun, item: Expectation) -> tuple[str | None, int | None]:
        """The first cited place that is a file under the root, else the rules line."""
        for place in item.evidence_location:
            if place.file and place.line:
                found = self._evidence(run, place.file)
                if found is not None:
                    return found, place.line
        return self.rules_line(item.rules_location)

    def rules_line(self, location: str) -> tuple[str | None, int | None]:
        """``name@digest:line:col`` as (the rules file's path, line)."""
        head, _, col = location.rpartition(":")
        name, _, line = head.rpartition(":")
        path = self.rules.get(name)
        if path is None or not ascii_digits(line, most=9) or not ascii_digits(col, most=9):
            return None, None
        return self.file(path), int(line)

    def file(self, path: Path) -> str | None:
        """``path`` from the root, POSIX; None when it is no file under the root."""
        if not path.is_file():
            return None
        relative = Path(os.path.relpath(os.path.abspath(path), os.path.abspath(self.root)))
        if relative.parts[:1] == ("..",) or relative.is_absolute():
            return None
        return relative.as_posix()

    def _evidence(self, run: GradedRun, file: str) -> str | None:
        inside = os.path.normpath(file)
        if run.path is not None and not os.path.isabs(inside) and inside.split(os.sep)[0] != "..":
            found = self.file(run.path / inside)
            if found is not None:
                return found
        name = file.split("#", 1)[0]  # chat.jsonl#/12/... : the source file, then the JSON Pointer
        origin = _origin(run, name)
        for folder in self.sources:
            found = self.file(folder / name)
            if found is not None and (origin is None or self._sha256(folder / name) == origin):
                return found
        return None

    def _sha256(self, path: Path) -> str | None:
        if path not in self.digests:
            self.digests[path] = _sha256(path)
        return self.digests[path]


def _origin(run: GradedRun, name: str) -> str | None:
    """The SHA-256 of the source ``name`` the run was imported from, as its source map
    records it (``origin``); None when the map records none for that name (an older
    map, a subagent's file). Sources share names (every skill-creator log is a
    ``transcript.md``): a file of that name with other bytes is another run's source,
    whose lines say something else, and is not pointed at."""
    from referee.engine.run.importers.source_map import load_source_map

    if run.path is None:
        return None
    source_map, _ = load_source_map(run.path)
    if source_map is None or not source_map.origin or source_map.sources[:1] != (name,):
        return None
    return source_map.origin.split("#", 1)[0]  # "#k": the k-th conversation of that source


def _sha256(path: Path) -> str | None:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()
