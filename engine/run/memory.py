"""A run held in memory: the same Run, its files given as a dict instead of a folder.

Tests and library users build runs from text with ``memory_run`` and get exactly
what a run on disk gives: the same transcript parser, decoding, JSON reading and
problems, because only the lowest layer (where bytes come from) differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import PurePosixPath

from referee.engine.run.model import JsonFile, Problem, RunId, TextFile
from referee.engine.run.safeio import decode, join_report, parse_json, safe_relative
from referee.engine.run.workspace import Run

Content = str | bytes


class MemoryRun(Run):
    """A ``Run`` whose files are ``{path relative to the run dir: text or bytes}``."""

    def __init__(self, files: Mapping[str, Content], run_id: RunId, metadata: dict | None = None):
        super().__init__(PurePosixPath("/<memory>"), run_id, dict(metadata or {}))  # type: ignore[arg-type]
        self._files = {str(PurePosixPath(name)): data for name, data in files.items()}

    def _bytes(self, rel: str) -> bytes | None:
        data = self._files.get(rel)
        return data.encode("utf-8") if isinstance(data, str) else data

    def _text(self, rel: str, lossy: bool = True) -> TextFile | None:
        data = self._bytes(rel)
        if data is None:
            return None
        text, problems = decode(data, join_report(self._base, rel), lossy=lossy)
        return TextFile(rel, text, len(data), tuple(problems))

    def _json(self, rel: str) -> JsonFile | None:
        found = self._text(rel)
        if found is None:
            return None
        if found.text is None:
            return JsonFile(rel, None, found.problems)
        result = parse_json(found.text, join_report(self._base, rel))
        problems = found.problems + ((result.problem,) if result.problem else ())
        return JsonFile(rel, result.value if result.ok else None, problems)

    @cached_property
    def metrics(self) -> JsonFile | None:
        return self._json("outputs/metrics.json")

    @cached_property
    def timing(self) -> JsonFile | None:
        return self._json("timing.json") or self._json("outputs/timing.json")

    @cached_property
    def _listing(self) -> tuple[str, ...]:
        return tuple(sorted(name.removeprefix("outputs/") for name in self._files
                            if name.startswith("outputs/")))

    def _read_output(self, rel: str) -> TextFile:
        safe = safe_relative(rel)
        if safe is None:
            problem = Problem("path-escape", join_report(self._base, f"outputs/{rel}"),
                              "path leaves the outputs folder; not read")
            self._own_problems.append(problem)
            return TextFile(f"outputs/{rel}", None, 0, (problem,))
        found = self._text(f"outputs/{safe}", lossy=False)
        if found is None:
            report = join_report(self._base, f"outputs/{safe}")
            return TextFile(f"outputs/{safe}", None, 0, (Problem("missing", report, "no such file"),))
        self._own_problems.extend(found.problems)
        return found

    def exists_output(self, rel: str) -> bool:
        safe = safe_relative(rel)
        return safe is not None and f"outputs/{safe}" in self._files


def memory_run(files: Mapping[str, Content], *, eval_id: str = "1", configuration: str = "with_skill",
               run_number: int = 1, eval_name: str | None = None, metadata: dict | None = None,
               rel: str | None = None) -> MemoryRun:
    """A run from ``{path: content}``, paths relative to the run directory
    (``"outputs/transcript.md"``, ``"timing.json"``, ...)."""
    where = rel if rel is not None else f"eval-{eval_id}/{configuration}/run-{run_number}"
    return MemoryRun(files, RunId(where, eval_id, eval_name, configuration, run_number), metadata)
