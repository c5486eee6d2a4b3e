"""The lines a report's evidence cites, as the reports quote them: read from the
run's files, or for an imported run whose evidence names its source
(``session.jsonl:42``, not in the run folder), from the written view the source
map maps to that line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from referee.engine.report.models import GradingReport
from referee.engine.run.safeio import read_text
from referee.engine.text import file_lines

MAX_SOURCE_CHARS = 400  # a quoted line longer than this is cut, and says so


def cited_lines(run_dir: Path, report: GradingReport) -> tuple[tuple[str, int, str], ...]:
    """The text of each line the evidence cites: read from the run's file, or, for an
    imported run whose evidence names its source (``session.jsonl:42``, not in the
    run folder), from the line of the written view the source map maps to it."""
    wanted = sorted({(p.file, p.line) for e in report.expectations for p in e.evidence_location
                     if p.file and p.line})
    texts: dict[str, list[str] | None] = {}
    mapped: dict[tuple[str, int], str] | None = None
    out = []
    for file, line in wanted:
        if file not in texts:
            found = read_text(run_dir, file)
            texts[file] = None if found is None or found.text is None else file_lines(found.text)
        lines = texts[file]
        if lines is not None and 0 < line <= len(lines):
            out.append((file, line, _cut(lines[line - 1])))
            continue
        if mapped is None:
            mapped = source_lines(run_dir)
        text = next((mapped[(name, line)] for name in cited_names(file) if (name, line) in mapped), None)
        if text is not None:
            out.append((file, line, _cut(text)))
    return tuple(out)


def source_lines(run_dir: Path) -> dict[tuple[str, int], str]:
    """``(source place, line) -> text`` of an imported run's written view: for each
    source line, the first written line the source map maps to it (empty for a run
    that was not imported). The source itself is not in the run folder. A source line
    that holds many things (a one-line JSON source) is told apart by JSON Pointer, as
    evidence names it (``chat.json#/messages/9/content``, ``source_place``)."""
    from referee.engine.run.importers.source_map import load_source_map

    source_map, _ = load_source_map(run_dir)
    if source_map is None:
        return {}
    found: dict[tuple[str, int], str] = {}
    for file in sorted(source_map.lines):
        for number, place in enumerate(source_map.lines[file], 1):
            if place is not None:
                text = source_map.written_line(file, number)
                if text is not None:
                    found.setdefault((source_place(source_map.sources, place), place[1]), text)
    return found


def source_place(sources: Sequence[str], place: tuple) -> str:
    """The source file of a source map's ``place``, with its JSON Pointer when it has one."""
    name = sources[place[0]]
    return f"{name}#{place[2]}" if len(place) > 2 and place[2] else name


def cited_names(file: str) -> list[str]:
    """The source places that evidence naming ``file`` may rest on, most precise first:
    ``chat.json#/messages/4/content/flights`` is within ``chat.json#/messages/4/content``
    (the pointer's parents, then the file itself). Never another pointer's line: in a
    one-line source, every written line comes from line 1."""
    name, _, pointer = file.partition("#")
    names = []
    while pointer:
        names.append(f"{name}#{pointer}")
        pointer = pointer.rpartition("/")[0]
    return names + [name]


def _cut(text: str) -> str:
    text = text.rstrip("\r")
    return text if len(text) <= MAX_SOURCE_CHARS else text[: MAX_SOURCE_CHARS - 1] + "…"
