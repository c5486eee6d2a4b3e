"""Importing the transcripts people have into run folders ``referee grade`` reads.

``import_sources(format, paths, out)`` reads each source with the importer of its
format (``claude_code``, ``openai``, ``skill_creator``), renders each conversation
with ``writer`` and writes one run folder per conversation under ``out``
(``placing``). Folder names come from the sources alone (``naming``), so the same
sources give the same workspace, byte for byte, wherever they lie. A source that
holds no conversation is an error for that source, never an empty run.
``conversations`` and ``writer.render_run`` give the same runs in memory, nothing
written. ``detect`` names a source's format; ``engine.run.importers.detect`` warns
about runs that are not what they seem.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import claude_code, openai, skill_creator
from referee.engine.run.importers.naming import eval_run_names, run_names
from referee.engine.run.importers.placing import PlaceRefused, place_run
from referee.engine.run.importers.record import Conversation
from referee.engine.run.importers.source import Source, json_container, loads, read_source
from referee.engine.run.importers.writer import RunFiles, render_run
from referee.engine.run.model import Problem

FORMATS = (claude_code.FORMAT, openai.FORMAT, skill_creator.FORMAT)
AUTO = "auto"


class UnknownFormat(Exception):
    """A source that cannot be imported at all (its format is unknown or wrong)."""


@dataclass(frozen=True)
class Imported:
    """One run folder written: its name under the output folder and its files."""

    name: str
    files: RunFiles
    conversation: Conversation


def detect_text(source: Source) -> str | None:
    """The format of a source read as text, or None when it is none referee imports."""
    first = next((line for line in source.lines if line.strip()), "")
    value = json_container(first)
    if value is not None and claude_code.looks_like(value[0]):
        return claude_code.FORMAT
    if value is not None and openai.looks_like(value[0]):
        return openai.FORMAT
    whole = json_container(source.text)
    if whole is not None and openai.looks_like(whole[0]):
        return openai.FORMAT
    if value is None and whole is None and skill_creator.looks_like(source.text):
        return skill_creator.FORMAT
    return None


def detect(path: Path) -> str | None:
    """The format of the file at ``path``, or None."""
    return detect_text(read_source(path))


@dataclass(frozen=True)
class Read:
    """What reading sources gave: each conversation with its source's path and its
    number in a source that holds several (else None), and an error per source
    that gave none (an empty, plain-text or unrelated file, a FIFO)."""

    found: tuple[tuple[Path, int | None, Conversation], ...]
    errors: tuple[str, ...] = ()

    @property
    def conversations(self) -> list[Conversation]:
        return [conversation for _, _, conversation in self.found]


def conversations(fmt: str, paths: list[Path]) -> list[Conversation]:
    """Every conversation of ``paths`` read as ``fmt`` (``auto``: each source's
    detected format), in memory: nothing is written (``writer.render_run`` gives a
    run's files). UnknownFormat for the first source that holds no conversation."""
    read = read_sources(fmt, paths)
    if read.errors:
        raise UnknownFormat(read.errors[0])
    return read.conversations


def read_sources(fmt: str, paths: list[Path]) -> Read:
    """Read every source as ``fmt`` (or its detected format with ``auto``), one at a time.

    A Claude Code subagent file (``agent-*.jsonl``) given beside its session is read
    with that session; one that belongs to no session given is imported on its own.
    """
    found: list[tuple[Path, int | None, Conversation]] = []
    errors: list[str] = []
    agents = [p for p in paths if _is_agent_file(p)]
    used: set[Path] = set()
    for path in [p for p in paths if p not in agents] + agents:
        if path in used:
            continue
        source = read_source(path)
        kind = detect_text(source) if fmt == AUTO else fmt
        if source.problems and not source.lines:  # not read at all: a FIFO, a device, too large
            errors.append(f"{path}: {source.problems[0].message}")
            continue
        if kind is None:
            errors.append(f"{path}: not a format referee imports; name it: "
                          f"referee import {{{','.join(FORMATS)}}} {path} --out DIR")
            continue
        read = _read_one(kind, path, source, [a for a in agents if a not in used and a != path], used)
        empty = [c for c in read if not c.entries and not c.response]
        if len(empty) == len(read):
            errors.append(f"{path}: holds no {kind} conversation (no message referee could read); nothing imported")
            continue
        several = len(read) > 1
        found.extend((path, n if several else None, c) for n, c in enumerate(read, 1)
                     if not any(c is e for e in empty))
    order = {path: n for n, path in enumerate(paths)}
    found.sort(key=lambda item: order.get(item[0], 0))
    return Read(tuple(found), tuple(errors))


def _read_one(kind: str, path: Path, source: Source, agents: list[Path], used: set[Path]) -> list[Conversation]:
    if kind == claude_code.FORMAT:
        conversation, attached = _session(path, source, agents)
        used.update(attached)
        return [conversation]
    if kind == openai.FORMAT:
        return openai.read_conversations(source)
    if not source.text.strip():
        return [Conversation(kind, (source.name,))]
    return [skill_creator.read_log(source, path.parent)]


def _is_agent_file(path: Path) -> bool:
    return path.name.startswith("agent-") and path.suffix == ".jsonl"


def _session(path: Path, source: Source, given: list[Path]) -> tuple[Conversation, set[Path]]:
    """The session at ``path`` with its subagent files: those given that share its
    session id, and those beside it (or in ``<session>/subagents/``) that do. A
    subagent file there that cannot be read may hold calls of this session."""
    session_id = _session_id(source)
    nearby = sorted(path.parent.glob("agent-*.jsonl")) + sorted((path.parent / path.stem / "subagents").glob("agent-*.jsonl"))
    agents: dict[str, tuple[Path, Source]] = {}
    unread: list[Problem] = []
    for candidate in list(given) + nearby:
        if candidate.name in agents or candidate == path or _is_agent_file(path):
            continue
        read = read_source(candidate)
        if read.problems and not read.lines:
            message = f"a subagent file that could not be read ({read.problems[0].message}) may hold calls of this session"
            unread.append(Problem(CALLS_MAY_BE_MISSING, read.name, message))
        elif session_id is not None and _session_id(read) == session_id:
            agents[candidate.name] = (candidate, read)
    chosen = [agents[name] for name in sorted(agents)]
    conversation = claude_code.read_session(source, tuple(s for _, s in chosen))
    return replace(conversation, label=path.name, problems=conversation.problems + tuple(unread)), {p for p, _ in chosen}


def _session_id(source: Source) -> str | None:
    for line in source.lines[:50]:
        value = loads(line) if line.strip() else None
        if value is not None and isinstance(value[0], dict) and isinstance(value[0].get("sessionId"), str):
            return value[0]["sessionId"]
    return None


@dataclass(frozen=True)
class Result:
    """An import: the run folders written, an error per source not imported, and
    notes (folders renamed, earlier imports replaced)."""

    written: tuple[Imported, ...]
    errors: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def import_sources(fmt: str, paths: list[Path], out: Path, eval_id: str | None = None,
                   configuration: str = "imported") -> Result:
    """Import ``paths`` as ``fmt`` and write one run folder per conversation under ``out``.

    Each run folder is named after its source (``out/<stem>``: the eval id is the
    stem; see ``naming``); with ``eval_id`` the conversations are the runs of that
    eval instead, in source order: ``out/eval-<id>/<configuration>/run-<k>``, k on
    from the runs already there. A folder of an earlier import is replaced whole
    (``placing``).
    """
    read = read_sources(fmt, paths)
    if eval_id is None:
        names, notes = run_names([(path, number) for path, number, _ in read.found])
    else:
        names, notes = eval_run_names(eval_id, configuration, len(read.found), out), []
    written, errors = [], list(read.errors)
    for name, (path, _, conversation) in zip(names, read.found, strict=True):
        files = render_run(conversation)
        try:
            if place_run(files, out, name):
                notes.append(f"{name}: replaced the run an earlier import wrote there")
        except PlaceRefused as exc:
            errors.append(f"{path}: {exc}")
            continue
        written.append(Imported(name, files, conversation))
    return Result(tuple(written), tuple(errors), tuple(notes))
