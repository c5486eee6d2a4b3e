"""Importing the transcripts people have into run folders ``referee grade`` reads.

``import_sources(format, paths, out)`` reads each source with the importer of its
format (``claude_code``, ``openai``, ``skill_creator``), renders each conversation
with ``writer`` and writes one run folder per conversation under ``out``
(``placing``). Folder names come from the sources alone (``naming``), so the same
sources give the same workspace, byte for byte, wherever they lie. A source that
holds no conversation is an error for that source, never an empty run.
``conversations`` and ``writer.render_run`` give the same runs in memory, nothing
written. ``source_format`` names a source's format; ``engine.run.run_warnings`` warns
about runs that are not what they seem.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.dsl.frozen import frozen
from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import (claude_code, claude_format, claude_stream, lossy, openai, openai_document,
                                          openai_sources, skill_creator)
from referee.engine.run.importers.delivered import UnreadableResponse, with_delivered
from referee.engine.run.importers.naming import Namer, eval_run_names
from referee.engine.run.importers.placing import PlaceRefused, place_run
from referee.engine.run.importers.record import Conversation
from referee.engine.run.importers.source import Source, loads, read_source
from referee.engine.run.importers.source_format import HEAD_BYTES, detect_text, unread_format  # noqa: F401 (for callers)
from referee.engine.run.importers.source_map import load_source_map
from referee.engine.run.importers.statuses import BadPattern, ErrorWhen  # noqa: F401 (BadPattern: for callers)
from referee.engine.run.importers.writer import RESPONSE, RunFiles, render_run
from referee.engine.run.model import Problem

FORMATS = (claude_format.FORMAT, openai.FORMAT, skill_creator.FORMAT)
AUTO = "auto"
# A session id as a record writes it, with no escape (what Claude Code writes: a UUID); a
# session log's records name it sessionId, what stream-json prints session_id
_SESSION_ID = re.compile(r'"(?:sessionId|session_id)"\s*:\s*"([^"\\]*)"')


class UnknownFormat(Exception):
    """A source that cannot be imported at all (its format is unknown or wrong)."""


@frozen
class Imported:
    """One run folder written: its name under the output folder and what it holds
    (not its files: an import of many conversations keeps one in memory at a time)."""

    name: str
    format: str
    calls: int  # the main agent's
    responded: bool | None  # None: the response is unknown (a part of it could not be read for certain)
    problems: tuple[Problem, ...]


@frozen
class Read:
    """What reading sources gave: each conversation with its source's path and its
    number in a source that holds several (else None), and an error per source
    that gave none (an empty, plain-text or unrelated file, a FIFO)."""

    found: tuple[tuple[Path, int | None, Conversation], ...]
    errors: tuple[str, ...] = ()

    @property
    def conversations(self) -> list[Conversation]:
        return [conversation for _, _, conversation in self.found]


def source_paths(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The sources given, as Paths: a library caller gives str as often as Path. A bare
    path where a list is meant is a TypeError (a str would be read as its characters)."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError(f"sources must be a list of paths, not one path: [{paths!r}]")
    return [Path(path) for path in paths]


def conversations(fmt: str, paths: list[Path], response: str | None = None,
                  error_when: str | None = None) -> list[Conversation]:
    """Every conversation of ``paths`` read as ``fmt`` (``auto``: each source's
    detected format), in memory: nothing is written (``writer.render_run`` gives a
    run's files). UnknownFormat for the first source that holds no conversation.
    ``response`` and ``error_when``: see ``each_conversation``."""
    read = read_sources(fmt, paths, response, error_when)
    if read.errors:
        raise UnknownFormat(read.errors[0])
    return read.conversations


def read_sources(fmt: str, paths: list[Path], response: str | None = None, error_when: str | None = None) -> Read:
    """Every conversation of ``paths`` and an error per source that gave none, at once."""
    found: list[tuple[Path, int | None, Conversation]] = []
    errors: list[str] = []
    for item in each_conversation(fmt, paths, response, error_when):
        if isinstance(item, str):
            errors.append(item)
        else:
            found.append(item)
    return Read(tuple(found), tuple(errors))


def each_conversation(fmt: str, paths: list[Path], response: str | None = None, error_when: str | None = None,
                      late: bool = False) -> Iterator[tuple[Path, int | None, Conversation] | str]:
    """Each conversation as it is read, ``(source path, its number in a source that
    holds several or None, conversation)``, or an error (text naming the source)
    for a source that gives none: only one source is read at a time.

    Sources are read as ``fmt`` (``auto``: as detected). A Claude Code subagent file
    (``agent-*.jsonl``) given beside its session is read with that session; one that
    belongs to no session given is imported on its own, after the others.
    A file the harness delivered beside a source (``response`` names it, relative to
    the run folder; ``engine.run.importers.delivered``) is the response of a source
    that holds one conversation. ``error_when`` (``--error-when``) is the pattern of a failed tool's answer in
    OpenAI sources (``statuses``; BadPattern when it does not compile). ``late``: the
    places of an OpenAI document's messages are cited without their columns, which the
    conversation finds when asked (``openai_document.read_document``): for runs graded
    in memory, which cite few of them.
    """
    pattern = ErrorWhen(error_when) if error_when is not None else None
    paths = source_paths(paths)
    agents = [p for p in paths if _is_agent_file(p)]
    used: set[Path] = set()
    for path in [p for p in paths if p not in agents] + agents:
        if path in used:
            continue
        source = read_source(path)
        if source.unread:  # a FIFO, a device, too large
            yield f"{path}: {source.problems[0].message}"
            continue
        kind = detect_text(source) if fmt == AUTO else fmt
        if kind is None:
            yield (f"{path}: not a format referee imports; name it: "
                   f"referee import {{{','.join(FORMATS)}}} {path} --out DIR")
            continue
        given = [a for a in agents if a not in used and a != path]
        yield from _of_source(kind, path, source, given, used, (response, pattern), late)


def _of_source(kind: str, path: Path, source: Source, agents: list[Path], used: set[Path],
               how: tuple[str | None, ErrorWhen | None], late: bool = False):
    """The conversations of one source, or the error saying it holds none."""
    count = 0
    digest = hashlib.sha256(source.data).hexdigest()
    try:
        for number, conversation in _read_one(kind, path, source, agents, used, how, late):
            if conversation.entries or conversation.response:
                count += 1
                origin = digest if number is None else f"{digest}#{number}"
                yield path, number, replace(lossy.marked(conversation), origin=origin)
            elif number is not None:  # one of several: its run is missing, which is said
                yield _gave_no_run(path, number, conversation)
    except (UnreadableResponse, openai_document.LangChainMessages, openai_sources.NoHistory,
            openai_sources.NoMessageList, claude_stream.Interleaved, claude_code.NothingAsked) as error:  # no run is made at all
        yield f"{path}: {error}; nothing imported from it"
        return
    except MemoryError:  # the machine's limit, not the source's fault: said plainly, naming it
        yield f"{path}: not enough memory to read it ({len(source.data)} bytes); nothing more imported from it"
        return
    if count == 0:
        other = unread_format(source)
        told = f"is {other}, a format referee does not import" if other is not None else \
            f"holds no {kind} conversation (no message referee could read)"
        yield f"{path}: {told}; nothing imported"


def _gave_no_run(path: Path, number: int, conversation: Conversation) -> str:
    """The error for a conversation of a source holding several that gives no run (an
    element that is no conversation, a task whose run crashed): left out without a
    word, the runs imported would read as all there were."""
    lines = [p.line for p in conversation.problems if p.line]
    where = f" (line {lines[0]})" if lines else ""
    why = "; ".join(dict.fromkeys(p.message for p in conversation.problems)) or "nothing could be read"
    return f"{path}: conversation {number}{where} holds no message referee could read ({why}); not imported"


def _read_one(kind: str, path: Path, source: Source, agents: list[Path], used: set[Path],
              how: tuple[str | None, ErrorWhen | None], late: bool = False):
    """``(number or None, conversation)`` of each conversation of the source; ``how``
    is (the delivered file's name, ``--error-when``); ``late``: see ``each_conversation``."""
    response, pattern = how
    if kind == claude_format.FORMAT:
        conversation, attached = _session(path, source, agents)
        used.update(attached)
        return [(None, with_delivered(conversation, path, response))]
    if kind == openai.FORMAT:
        return ((number, with_delivered(found, path, response) if number is None else found)
                for number, found in openai_sources.iter_conversations(source, pattern, late))
    if not source.data.strip() or not skill_creator.holds_log(source):
        return []
    return [(None, skill_creator.read_log(source, path.parent, response))]


def _is_agent_file(path: Path) -> bool:
    return path.name.startswith("agent-") and path.suffix == ".jsonl"


def _session(path: Path, source: Source, given: list[Path]) -> tuple[Conversation, set[Path]]:
    """The session at ``path`` with its subagent files: those given that share a
    session id of its records, and those beside it (or in ``<session>/subagents/``)
    that do. A subagent file there that cannot be read may hold calls of this session."""
    session_ids = _session_ids(source)
    nearby = sorted(path.parent.glob("agent-*.jsonl")) + sorted((path.parent / path.stem / "subagents").glob("agent-*.jsonl"))
    agents: dict[str, tuple[Path, Source]] = {}
    unread: list[Problem] = []
    for candidate in list(given) + nearby:
        if _real(candidate) in agents or candidate == path or _is_agent_file(path):
            continue
        read = read_source(candidate)
        if read.unread:
            message = f"a subagent file that could not be read ({read.problems[0].message}) may hold calls of this session"
            unread.append(Problem(CALLS_MAY_BE_MISSING, read.name, message))
        elif _session_id(read) in session_ids:
            agents[_real(candidate)] = (candidate, read)  # two files of one name are two files
    chosen = [agents[key] for key in sorted(agents, key=lambda key: (Path(key).name, key))]
    conversation = claude_code.read_session(source, tuple(s for _, s in chosen), alone=_is_agent_file(path))
    return replace(conversation, label=path.name, problems=conversation.problems + tuple(unread)), {p for p, _ in chosen}


def _real(path: Path) -> str:
    """The file a path names, its links followed as far as they go: a loop of links
    is no error here (``Path.resolve`` raises on one), but a file that cannot be read."""
    return os.path.realpath(path)


def _held_by_another(out: Path, origin: str):
    """Whether a run folder name under ``out`` holds the import of another source
    (its source map names another origin); one that holds no import, or an import
    older than origins, is left for ``placing`` to judge."""
    def held(name: str) -> bool:
        found, _ = load_source_map(out / name) if (out / name).is_dir() and not (out / name).is_symlink() \
            else (None, ())
        return found is not None and found.origin not in ("", origin)
    return held


def _session_ids(source: Source) -> frozenset[str]:
    """Every session id the file's records give: a session resumed from another keeps
    the id of the one it copied on the records it copied, and gives its own to the
    records (and the subagents) of its own work."""
    first = _session_id(source)  # the first, however its record writes it
    found = {first} if first is not None else set()
    for _, line in source.numbered_lines():
        # a line is parsed only when it names an id not known yet (at its top, or nested
        # in a tool's input, which is no session of this file): most name the first alone
        if not set(_SESSION_ID.findall(line)) <= found:
            value = loads(line)
            named = _named_session(value[0]) if value is not None else None
            if named is not None:
                found.add(named)
    return frozenset(found)


def _session_id(source: Source) -> str | None:
    """The first session id the file's records give (a resumed session may open with
    many records that give none: summaries, snapshots)."""
    for _, line in source.numbered_lines():
        value = loads(line) if "sessionId" in line or "session_id" in line or "\\u" in line else None
        named = _named_session(value[0]) if value is not None else None
        if named is not None:
            return named
    return None


def _named_session(record: Any) -> str | None:
    """The session a record names: a session log's ``sessionId``, or the ``session_id``
    of what stream-json prints (whose subagents Claude Code keeps in ``agent-*.jsonl``
    files of that session, as a session log's)."""
    if not isinstance(record, dict):
        return None
    if isinstance(record.get("sessionId"), str):
        return record["sessionId"]
    return record["session_id"] if claude_stream.is_stream_record(record) else None


@frozen
class Result:
    """An import: the run folders written, an error per source not imported, and
    notes (folders renamed, earlier imports replaced)."""

    written: tuple[Imported, ...]
    errors: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def import_sources(fmt: str, paths: list[Path], out: Path, eval_id: str | None = None,
                   configuration: str = "imported", response: str | None = None,
                   error_when: str | None = None) -> Result:
    """Import ``paths`` as ``fmt`` and write one run folder per conversation under ``out``.

    Each run folder is named after its source (``out/<stem>``: the eval id is the
    stem; see ``naming``); with ``eval_id`` the conversations are the runs of that
    eval instead, in source order: ``out/eval-<id>/<configuration>/run-<k>``, k on
    from the runs already there. A folder of an earlier import of the same source is
    replaced whole (``placing``); one of another source keeps its name, and the new
    run takes another (``naming``). Each conversation is written as soon as it is read, and let go.
    ``response`` and ``error_when``: see ``each_conversation``.
    """
    namer = Namer(paths)
    numbers = iter(eval_run_names(eval_id, configuration, out)) if eval_id is not None else None
    written, errors, notes = [], [], []
    for item in each_conversation(fmt, paths, response, error_when):
        if isinstance(item, str):
            errors.append(item)
            continue
        path, number, conversation = item
        name = namer.name(path, number, _held_by_another(out, conversation.origin)) if numbers is None \
            else next(numbers)
        try:
            files = render_run(conversation)
            if place_run(files, out, name):
                notes.append(f"{name}: replaced the run an earlier import wrote there")
        except PlaceRefused as exc:
            errors.append(f"{path}: {exc}")
            continue
        except MemoryError:  # the machine's limit, as while reading: said plainly, naming the source
            errors.append(f"{path}: not enough memory to write the run it holds; not imported")
            continue
        written.append(Imported(name, conversation.format, len(conversation.calls), _responded(files),
                                files.problems))
    return Result(tuple(written), tuple(errors), tuple(namer.notes + notes))


def _responded(files: RunFiles) -> bool | None:
    """Whether the run has a response: None where a part of it could not be read for
    certain (the source map marks it unread), whatever else was read beside it."""
    if RESPONSE in files.source_map.unread:
        return None
    return bool(files.encoded[RESPONSE].decode("utf-8").strip())
