"""Importing the transcripts people have into run folders ``referee grade`` reads.

``import_sources(format, paths, out)`` reads each source with the importer of its
format (``claude_code``, ``openai``, ``skill_creator``), renders each conversation
with ``writer`` and writes one run folder per conversation under ``out``. Folder
names come from the source file names alone, so the same sources give the same
workspace, byte for byte, wherever they lie. ``detect`` names a source's format;
``engine.run.importers.detect`` warns about runs that are not what they seem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from referee.engine.run.importers import claude_code, openai, skill_creator
from referee.engine.run.importers.delivered import with_delivered
from referee.engine.run.importers.record import Conversation
from referee.engine.run.importers.source import Source, json_container, loads, read_source
from referee.engine.run.importers.writer import RunFiles, render_run, write_run

FORMATS = (claude_code.FORMAT, openai.FORMAT, skill_creator.FORMAT)
AUTO = "auto"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


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


def conversations(fmt: str, paths: list[Path], response: str | None = None) -> list[Conversation]:
    """Read every source as ``fmt`` (or its detected format with ``auto``), one at a time.

    A Claude Code subagent file (``agent-*.jsonl``) given beside its session is read
    with that session; one that belongs to no session given is imported on its own.
    A file the harness delivered beside a source (``response`` names it, relative to
    the run folder; ``engine.run.importers.delivered``) is its response.
    """
    found: list[Conversation] = []
    agents = [p for p in paths if _is_agent_file(p)]
    used: set[Path] = set()
    later = [p for p in paths if p not in agents] + agents
    for path in later:
        if path in used:
            continue
        source = read_source(path)
        kind = detect_text(source) if fmt == AUTO else fmt
        if kind is None:
            raise UnknownFormat(f"{path}: not a format referee imports; name it: "
                                f"referee import {{{','.join(FORMATS)}}} {path} --out DIR")
        if kind == claude_code.FORMAT:
            conversation, attached = _session(path, source, [a for a in agents if a not in used and a != path])
            used.update(attached)
            found.append(with_delivered(conversation, path, response))
        elif kind == openai.FORMAT:
            read = openai.read_conversations(source)
            found.extend([with_delivered(read[0], path, response)] if len(read) == 1 else read)
        else:
            found.append(skill_creator.read_log(source, path.parent, response))
    order = {path.name: n for n, path in enumerate(paths)}
    return sorted(found, key=lambda c: order.get(c.sources[0] if c.sources else "", 0))


def _is_agent_file(path: Path) -> bool:
    return path.name.startswith("agent-") and path.suffix == ".jsonl"


def _session(path: Path, source: Source, given: list[Path]) -> tuple[Conversation, set[Path]]:
    """The session at ``path`` with its subagent files: those given that share its
    session id, and those beside it (or in ``<session>/subagents/``) that do."""
    session_id = _session_id(source)
    nearby = sorted(path.parent.glob("agent-*.jsonl")) + sorted((path.parent / path.stem / "subagents").glob("agent-*.jsonl"))
    agents: dict[str, tuple[Path, Source]] = {}
    for candidate in list(given) + nearby:
        if candidate.name in agents or candidate == path or _is_agent_file(path):
            continue
        read = read_source(candidate)
        if session_id is not None and _session_id(read) == session_id:
            agents[candidate.name] = (candidate, read)
    chosen = [agents[name] for name in sorted(agents)]
    conversation = claude_code.read_session(source, tuple(s for _, s in chosen))
    return replace(conversation, label=path.name), {p for p, _ in chosen}


def _session_id(source: Source) -> str | None:
    for line in source.lines[:50]:
        value = loads(line) if line.strip() else None
        if value is not None and isinstance(value[0], dict) and isinstance(value[0].get("sessionId"), str):
            return value[0]["sessionId"]
    return None


def run_names(found: list[Conversation]) -> list[str]:
    """A folder name per conversation: the source's stem (made safe), numbered when taken."""
    names: list[str] = []
    for conversation in found:
        label = conversation.label or (conversation.sources[0] if conversation.sources else "run")
        stem, _, number = label.partition("#")
        base = _safe(Path(stem).stem, "run")
        name = f"{base}-{number}" if number else base
        candidate, n = name, 2
        while candidate in names:
            candidate, n = f"{name}-{n}", n + 1
        names.append(candidate)
    return names


def import_sources(fmt: str, paths: list[Path], out: Path, eval_id: str | None = None,
                   configuration: str = "imported", response: str | None = None) -> list[Imported]:
    """Import ``paths`` as ``fmt`` and write one run folder per conversation under ``out``.

    Each run folder is named after its source (``out/<stem>``: the eval id is the
    stem); with ``eval_id`` the conversations are the runs of that eval instead,
    in source order: ``out/eval-<id>/<configuration>/run-<k>``. ``response``: see
    ``conversations``.
    """
    found = conversations(fmt, paths, response)
    if eval_id is None:
        names = run_names(found)
    else:
        folder = f"eval-{_safe(eval_id)}/{_safe(configuration)}"
        names = [f"{folder}/run-{k}" for k in range(1, len(found) + 1)]
    written = []
    for name, conversation in zip(names, found, strict=True):
        files = render_run(conversation)
        write_run(files, out / name)
        written.append(Imported(name, files, conversation))
    return written


def _safe(name: str, empty: str = "x") -> str:
    """``name`` as a folder name: unsafe characters made ``-``; ``empty`` when nothing is left."""
    return _UNSAFE.sub("-", name).strip("-.") or empty
