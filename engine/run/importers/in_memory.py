"""Sources graded where they lie: the runs ``referee import`` would write, held in memory.

``referee grade session.jsonl`` (and ``referee.grade(rules, "chat.json")``) reads
each source as ``import`` reads it (``each_conversation``), renders each
conversation into the files of its run folder (``writer.render_run``) and grades
those files as a run held in memory (``engine.run.memory``), with the source map
as data: nothing is written.
A run gets the name ``import`` would give its folder (``naming``) and the identity
discovery would read from that folder (``engine.run.identity``), so the verdicts,
evidence and reports are those of ``referee import`` then ``referee grade``.
"""

from __future__ import annotations

from pathlib import Path

from referee.dsl.frozen import frozen
from referee.engine.run.discovery import run_order
from referee.engine.run.identity import MetadataReader, identify
from referee.engine.run.importers import AUTO, each_conversation, source_paths
from referee.engine.run.importers.naming import Namer, eval_run_names
from referee.engine.run.importers.writer import RunFiles, render_run
from referee.engine.run.kept_apart import KeptApart, place_of
from referee.engine.run.memory import MemoryRun
from referee.engine.run.model import Problem, RunId
from referee.engine.run.reading import NO_FILES, ResponseFiles

# Where a run held in memory seems to lie: its identity is read from the names of its
# folders alone (``_NoFolders``), never from a folder of this machine.
_NOWHERE = Path("/<memory>")


@frozen
class SourceRuns:
    """The runs of the sources, in the order discovery gives the folders ``import``
    writes; an error per source that gave none; notes on names changed."""

    runs: tuple[MemoryRun, ...]
    errors: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def source_runs(paths: list[Path], eval_id: str | None = None, configuration: str = "imported",
                response: str | None = None, error_when: str | None = None, fmt: str = AUTO,
                responses: ResponseFiles = NO_FILES) -> SourceRuns:
    """The runs ``referee import FMT PATHS --out DIR [--eval EVAL_ID --config CONFIGURATION]``
    would write into an empty DIR, in memory, as ``referee grade DIR`` would read them.

    ``response`` and ``error_when`` are import's (``each_conversation``); ``responses``
    are grade's (the files each run names as its response). BadPattern for an
    ``error_when`` that does not compile."""
    paths = source_paths(paths)
    namer = Namer(paths)
    numbered = iter(eval_run_names(eval_id, configuration, _NOWHERE)) if eval_id is not None else None
    found, errors = [], []
    # no source map is written: the columns of a document's places are found when cited
    for item in each_conversation(fmt, paths, response, error_when, late=True):
        if isinstance(item, str):
            errors.append(item)
            continue
        path, number, conversation = item
        name = namer.name(path, number) if numbered is None else next(numbered)
        found.append((render_run(conversation), _identity(name)))
    # As discovery reads the folders written: an eval id that two eval folders give
    # (eval-1-book, eval-1-hotel) names two evals, kept apart by folder.
    repeated = KeptApart.of(place_of(run_id) for _, (run_id, _) in found)
    runs = [_run(files, repeated.apply(run_id) if run_id.eval_id in repeated else run_id, metadata, responses)
            for files, (run_id, metadata) in found]
    runs.sort(key=lambda run: run_order(run.id, run.id.rel))  # as discovery orders the folders written
    return SourceRuns(tuple(runs), tuple(errors), tuple(namer.notes))


def _identity(rel: str) -> tuple[RunId, dict]:
    """The identity and metadata discovery reads from the run folder ``rel`` import writes."""
    run_id, metadata, _ = identify(_NOWHERE / rel, rel, _NoFolders(), own_metadata=False, imported=True)
    return run_id, metadata


def _run(files: RunFiles, run_id: RunId, metadata: dict, responses: ResponseFiles) -> MemoryRun:
    """The run of a conversation rendered: it holds the views' UTF-8, the source map and layout."""
    return MemoryRun(files.encoded, run_id, metadata, responses, source_map=files.source_map, layout=files.layout)


class _NoFolders(MetadataReader):
    """Metadata of folders that are not there: none (import writes no eval_metadata.json)."""

    def read(self, folder: Path, report_base: str, shared: bool = True) -> tuple[dict, tuple[Problem, ...]]:
        return {}, ()
