"""Warnings for runs that cannot be what the user thinks they are.

``run_warnings(run)`` is called by ``engine.run.workspace.Run.problems``; it reports

- the problems recorded when the run was imported (``source_map.json``), naming
  the source file and line; for a skill-creator log, that no raw tool record
  exists (its tool lines are the agent's claims); ``view-changed`` when the
  transcript or response is no longer what the import wrote;
- ``metrics-without-calls``: ``metrics.json`` counts more tool calls than the
  transcript holds, so the calls it lacks cannot be checked (``engine.run.uncounted``);
- ``unimported-transcript``: a file in ``outputs/`` or its folders (or the transcript itself)
  that holds a Claude Code session or an OpenAI message list, which referee does
  not read as a transcript until it is imported;
- ``unrecognised-transcript``: a transcript with text but no tagged section at all.

The importers (``engine.run.importers``, which tell a log's format) are loaded only
for a run that needs them: one imported, one whose transcript holds no record, one
holding a file that may be a log. A run written in the transcript format needs none.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from referee.engine.run.agents import view_changed
from referee.engine.run.model import Problem
from referee.engine.run.reading import RESPONSE
from referee.engine.run.safeio import join_report
from referee.engine.run.transcript import TRANSCRIPT
from referee.engine.text import file_lines

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

# What a log is named: also as a shell saved what ``claude -p --output-format stream-json``
# printed (``> claude.ndjson``, ``> claude.log``, ``> output.txt``); its head tells the rest.
LOG_SUFFIXES = (".jsonl", ".json", ".ndjson", ".log", ".txt")
OWN_FILES = frozenset({"metrics.json", "timing.json", "eval_metadata.json", "grading.json",
                        "ground_truth.json", "source_map.json"})


def run_warnings(run: Run) -> list[Problem]:
    """Every warning of this module for ``run`` (an ``engine.run.workspace.Run``)."""
    base = run.id.rel
    found: list[Problem] = []
    source_map, problems = run.source_map
    found.extend(problems)  # the run's reader has put them under its folder already
    if source_map is not None:
        found.extend(source_map.problems)
        from referee.engine.run.importers import skill_creator  # loaded already: the map was read with it
        from referee.engine.run.importers.detect import IMPORTED_LOG

        if source_map.format == skill_creator.FORMAT:
            found.append(Problem("no-tool-record", join_report(base, "outputs/transcript.md"), IMPORTED_LOG))
        for view, written in ((run.transcript_file, TRANSCRIPT), (run.response, RESPONSE)):
            changed = view_changed(view, written, source_map.digests, base)
            if changed is not None:
                found.append(changed)
    found.extend(_transcript_warnings(run, base, source_map is not None))
    found.extend(_unimported_outputs(run, base))
    return found + _calls_unknown(run, found)


def _calls_unknown(run: Run, found: list[Problem]) -> list[Problem]:
    """Why the run's calls may be incomplete, when no warning above says it already: a
    subagent transcript the import wrote that is missing, cannot be read or was
    edited since. Every check over calls is an ERROR for it, and the run's warnings
    say why."""
    unknown = run.every_call.unknown
    return [] if unknown is None or unknown in found else [unknown]


def _transcript_warnings(run: Run, base: str, imported: bool) -> list[Problem]:
    source = run.transcript_file
    transcript = run.transcript
    where = join_report(base, source.path if source is not None else "outputs/transcript.md")
    counted = run.uncounted_calls
    found = [] if counted is None else [counted]
    text = source.text if source is not None else None
    if not text or not text.strip() or transcript.calls or imported:
        return found
    from referee.engine.run.importers import HEAD_BYTES, skill_creator
    from referee.engine.run.importers.detect import a_kind, log_format

    lines = file_lines(text.removeprefix("\ufeff"))
    if any(skill_creator.tagged(note, lines) for note in transcript.notes):
        return found
    kind = log_format(text[:HEAD_BYTES])
    if kind is not None:
        message = f"holds {a_kind(kind)} log, not a dual-section transcript; import it: referee import {kind} FILE --out DIR"
        found.append(Problem("unimported-transcript", where, message))
    elif skill_creator.log_shaped(text):  # looks_like's parse and tag test were done above
        message = ("a skill-creator executor log: the agent wrote it, so it has no tool-call record and a "
                   "check over calls cannot be decided (an error); its final result section is the response "
                   "when the run has no response file, or an empty one")
        found.append(Problem("no-tool-record", where, message))
    elif not transcript.suspect_calls:  # records, all untrusted, are a format recognised (and said so)
        message = "no [tool_calls] or [agent_notes] section: an unrecognised transcript format, read as agent prose"
        found.append(Problem("unrecognised-transcript", where, message))
    return found


# How far ``outputs/`` is looked into for a log nobody imported (``outputs/logs/claude.jsonl``):
# its folders this many levels deep, shallow ones first, at most so many of them listed
# and so many files read in them (every file at its top is read, as ever).
_OUTPUTS_DEPTH = 3
_OUTPUTS_FOLDERS = 200
_OUTPUTS_LOOKED_AT = 200


def _unimported_outputs(run: Run, base: str) -> list[Problem]:
    """Session logs lying in ``outputs/`` or its folders, which grading does not read."""
    outputs = run.path / "outputs"
    found: list[Problem] = []
    logs = _output_logs(outputs)
    if not logs:
        return found
    from referee.engine.run.importers.detect import a_kind, head, log_format

    for name in logs:
        kind = log_format(head(outputs / name))
        if kind is not None:
            message = (f"looks like {a_kind(kind)} log that was not imported: its calls, notes and answer are not read; "
                       f"import it: referee import {kind} FILE --out DIR")
            found.append(Problem("unimported-transcript", join_report(base, f"outputs/{name}"), message))
    return found


def _output_logs(outputs: Path) -> list[str]:
    """The files under ``outputs/`` named as a log may be (their paths relative to it):
    every one at its top, then those of its folders, level by level and in name order
    within one (a log kept in ``logs/`` is met before a deep tree of data is walked),
    within the bounds above. Links are not followed."""
    found: list[str] = []
    level, looked, listed = [""], 0, 0
    for depth in range(_OUTPUTS_DEPTH + 1):
        deeper = []
        for folder in level:
            if depth and listed >= _OUTPUTS_FOLDERS:
                return found
            listed += depth > 0
            try:
                with os.scandir(outputs / folder if folder else outputs) as listing:
                    entries = sorted((e.name, e.is_file(follow_symlinks=False), e.is_dir(follow_symlinks=False))
                                     for e in listing)
            except OSError:
                continue
            for name, is_file, is_dir in entries:
                path = f"{folder}/{name}" if folder else name
                if is_file and name.endswith(LOG_SUFFIXES) and (depth or name not in OWN_FILES):
                    if depth and looked >= _OUTPUTS_LOOKED_AT:
                        return found
                    looked += depth > 0
                    found.append(path)
                elif is_dir:
                    deeper.append(path)
        level = deeper
    return found
