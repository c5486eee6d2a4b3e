"""One run of a workspace, each of its files read lazily, and loading a run.

A run directory is any directory that holds ``outputs/``; finding them all is
``engine.run.discovery`` (its names, ``discover`` first, are importable from here
too). Which eval, configuration and run a folder is: ``engine.run.identity``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

# Identity lives in engine.run.identity; its public names are importable from here too.
from referee.engine.run.identity import (  # noqa: F401
    DEFAULT_CONFIGURATION, METADATA, SOURCE_MAP, MetadataReader, eval_from_folder, eval_prefix, identify, is_eval_folder,
    is_run_folder, is_run_like, natural_key, report_path,
)
from referee.engine.run.import_views import changed_json, changed_response, imported_json, imported_response
from referee.engine.run.kept_apart import KeptApart
from referee.engine.run.model import JsonFile, Problem, RunId, TextFile, Transcript, UserNotes
from referee.engine.run.reading import (NO_FILES, ResponseFiles, json_object, missing_response, no_record, read_response,
                                        response_elsewhere, response_problems)
from referee.engine.run.safeio import join_report, json_file, locate, other_name, read_text, safe_relative
from referee.engine.run.transcript import parse_transcript
from referee.engine.run.transcript_answer import log_answer
from referee.engine.run.user_notes import parse_user_notes

if TYPE_CHECKING:  # the importers are loaded only when a run is asked for its map
    from collections.abc import Iterable, Mapping

    from referee.engine.run.agents import Calls
    from referee.engine.run.discovery import Discovery, RunList, discover, run_folder  # noqa: F401 (see __getattr__)
    from referee.engine.run.importers.source_map import SourceMap

_UNREAD_LISTING = frozenset({"symlink-escape", "symlink-loop", "broken-symlink", "not-a-file", "unreadable"})


class Run:
    """One run directory; every file is read on first use and may be absent or broken.

    ``path`` is absolute and never written to output; ``id.rel`` (relative to the
    workspace, POSIX) prefixes the path of every problem. Nothing here raises on
    what is on disk: defects become ``problems``.
    """

    def __init__(self, path: Path, run_id: RunId, metadata: dict, problems: tuple[Problem, ...] = (),
                 responses: ResponseFiles = NO_FILES):
        self.path = path
        self.id = run_id
        self.metadata = metadata
        self._base = run_id.rel
        self._own_problems = list(problems)
        self._outputs: dict[str, TextFile] = {}
        self.response_named = responses.named(run_id)  # (path, who named it), or None

    def __repr__(self) -> str:
        return f"Run({self.id.rel!r})"

    @cached_property
    def transcript_file(self) -> TextFile | None:
        """The transcript as text, read once: the parser, metrics and claims all use
        this copy. ``transcript.md`` beside ``outputs/`` is the harness's and wins;
        ``outputs/transcript.md`` (which the agent can write) is read only when the
        run has no other, and when both exist the run says so (``two-transcripts``)."""
        harness = self._text("transcript.md")
        if harness is None:
            return self._text("outputs/transcript.md")
        if self._exists("outputs/transcript.md"):
            message = ("outputs/transcript.md is not read: the transcript beside outputs/ is the "
                       "harness's record, and the agent can write into outputs/")
            problem = Problem("two-transcripts", join_report(self._base, "outputs/transcript.md"), message)
            return replace(harness, problems=harness.problems + (problem,))
        return harness

    @cached_property
    def transcript(self) -> Transcript:
        """The transcript file parsed; empty when there is none. A file that could
        not be read exactly (binary, too large, not UTF-8 ...) gives a transcript
        marked ``unreadable``: checks that read it are errors, never a pass on nothing."""
        source = self.transcript_file
        if source is None:
            return Transcript()
        unreadable = source.unreadable
        if source.text is None:
            return Transcript(problems=source.problems, unreadable=unreadable)
        parsed = self._parsed(source.text, source.path)
        return replace(parsed, problems=source.problems + parsed.problems, unreadable=unreadable)

    def _parsed(self, text: str, rel: str) -> Transcript:
        """The transcript ``text`` of the file ``rel``, parsed."""
        return parse_transcript(text, rel, join_report(self._base, rel))

    @cached_property
    def response(self) -> TextFile | None:
        """The response: the file the harness named, ``outputs/response.md``, or an
        executor log's ``## Final Result`` section (``engine.run.reading``).
        Undecodable bytes are replaced for display and reported, and the file
        counts as unreadable (``TextFile.unreadable``)."""
        found = read_response(self._text, self.response_named,
                              lambda: log_answer(self.transcript_file, self.transcript, self._base), self._base)
        if found is None and self.response_named is not None:
            found = self._named_in_other_case(self.response_named[0])
        found = response_elsewhere(found, self.response_named, self.output_files, self._base)
        source_map = self.source_map[0] if found is not None or self.response_named is None else None
        if source_map is None:  # not imported, or the file the harness named is not there (said so)
            return found
        if found is not None:
            found = imported_response(found, source_map.unread, join_report(self._base, found.path))
        return changed_response(found, source_map.digests, self._base)

    def _named_in_other_case(self, named: str) -> TextFile | None:
        """The named response file the run holds only under a name Windows and macOS
        take for the same (``safeio.other_name``): there, but not read, so unusable;
        as missing, 'not response contains' passed on it. None when there is none."""
        rel = safe_relative(named)
        held = None if rel is None else other_name(rel, [f"outputs/{name}" for name in self.output_files()])
        if rel is None or held is None:
            return None
        message = (f"no such file, but the run has {held}, a name Windows and macOS take for the same file: "
                   "which one is the response cannot be told; name it as the run has it")
        return TextFile(rel, None, 0, (Problem("name-case", join_report(self._base, rel), message),))

    @property
    def response_missing(self) -> str:
        """Why there is no response, for a check that reads it."""
        return missing_response(self.response_named)

    @cached_property
    def no_record(self) -> str | None:
        """Why the run holds no tool-call record, so that no check over its calls can
        be decided (``engine.run.reading``); None when the transcript is one."""
        source_map = self.source_map[0]
        return no_record(self.transcript_file, self.transcript, None if source_map is None else source_map.format)

    @cached_property
    def metrics(self) -> JsonFile | None:
        return self._imported_json("outputs/metrics.json")

    @cached_property
    def timing(self) -> JsonFile | None:
        """``timing.json`` in the run dir (``outputs/timing.json`` as a fallback)."""
        return self._imported_json("timing.json", "outputs/timing.json")

    def _imported_json(self, path: str, beside: str | None = None) -> JsonFile | None:
        """The JSON file ``path`` (else ``beside``), unusable where it is no JSON
        object, where an import wrote it without reading its source's file, or where it
        is not what an import wrote there (``import_views.changed_json``)."""
        text, source_map = self._text(path), self.source_map[0]
        changed = None if source_map is None else changed_json(path, text, source_map.digests, self._base)
        if changed is not None:
            return changed
        found = json_file(text, self._base) or (json_file(self._text(beside), self._base) if beside else None)
        found = json_object(found, self._base)
        if found is None or source_map is None:
            return found
        return imported_json(found, source_map.unread, join_report(self._base, found.path))

    @cached_property
    def user_notes(self) -> UserNotes:
        source = self._text("outputs/user_notes.md")
        if source is None:
            return UserNotes()
        return parse_user_notes(source.text, source.problems)

    # The two places where bytes come from: a run held in memory (engine.run.memory)
    # replaces these, and everything above them reads it as it reads a folder.
    def _text(self, rel: str, lossy: bool = True) -> TextFile | None:
        """``rel`` (relative to the run directory) as text; None when there is no such file."""
        return read_text(self.path, rel, self._base, lossy=lossy)

    def _exists(self, rel: str) -> bool:
        return locate(self.path, rel, "").exists

    def _held(self) -> Mapping[str, str | bytes] | None:
        """The run's files when it is held in memory; None for a folder."""
        return None

    @cached_property
    def _listing(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``(names, unlisted)``: every entry under ``outputs/`` that is no folder (a
        link that cannot be followed too: its name is there, whatever it points at),
        and why a folder's files are not listed: a link to a folder is not walked, and
        a folder that cannot be read cannot be."""
        names: list[str] = []
        unlisted: list[str] = []
        outputs = self.path / "outputs"
        walked = os.fspath(outputs)  # the first folder os.walk gives, as it gives it

        def not_listed(error: OSError) -> None:  # os.walk skips such a folder without a word
            where = os.fspath(error.filename) if error.filename is not None else walked
            if where == walked and isinstance(error, (FileNotFoundError, NotADirectoryError)):
                return  # no outputs/ folder: a run without outputs, said where runs are found
            rel = "" if where == walked else "/" + Path(where).relative_to(outputs).as_posix()
            unlisted.append(f"outputs{rel} cannot be read ({error.strerror or type(error).__name__})")

        for top, dirs, files in os.walk(outputs, onerror=not_listed):  # never descends into symlinked folders
            dirs.sort()
            rel_top = "." if top == walked else Path(top).relative_to(outputs).as_posix()
            for name in files:
                rel = name if rel_top == "." else f"{rel_top}/{name}"
                self._note_unreadable(rel)
                names.append(rel)
            unlisted.extend(f"outputs/{name if rel_top == '.' else f'{rel_top}/{name}'} is a link to a folder, "
                            "not followed" for name in dirs if os.path.islink(os.path.join(top, name)))
        return tuple(sorted(names)), tuple(sorted(unlisted))

    def _note_unreadable(self, rel: str) -> None:
        """A listed output that cannot be read (a link out of the run, a FIFO): said."""
        found = locate(self.path, f"outputs/{rel}", join_report(self._base, f"outputs/{rel}"))
        self._own_problems.extend(p for p in found.problems if p.code in _UNREAD_LISTING)

    def output_files(self) -> list[str]:
        """Files under ``outputs/`` as sorted POSIX paths relative to it.

        Every file counts, the run's own (transcript.md, response.md, ...) too, and
        so does a symlink leaving the run, broken or looping (reported: its name is
        there, its content is not read); a symlinked folder is not walked, nor one
        that cannot be read (``unlisted_outputs``).
        """
        return list(self._listing[0])

    def unlisted_outputs(self) -> tuple[str, ...]:
        """Why each folder under ``outputs/`` whose files are not listed is not: a
        symlinked folder, or one that cannot be read ("outputs/x is a link to a
        folder, not followed")."""
        return self._listing[1]

    def read_output(self, rel: str) -> TextFile:
        """Read ``outputs/<rel>`` as text; never raises.

        A path with ``..`` or an absolute path gives ``path-escape``; a missing file
        ``missing`` (not counted among the run's problems); symlink escapes, loops,
        files over the size cap, binary and non-UTF-8 files give text None and a
        problem. The result is cached per path.
        """
        if rel not in self._outputs:
            self._outputs[rel] = self._read_output(rel)
        return self._outputs[rel]

    def _read_output(self, rel: str) -> TextFile:
        safe = safe_relative(rel)
        if safe is None:
            report = join_report(self._base, f"outputs/{rel}")
            problem = Problem("path-escape", report, "path leaves the outputs folder; not read")
            self._own_problems.append(problem)
            return TextFile(f"outputs/{rel}", None, 0, (problem,))
        found = self._text(f"outputs/{safe}", lossy=False)
        if found is None:
            report = join_report(self._base, f"outputs/{safe}")
            return TextFile(f"outputs/{safe}", None, 0, (Problem("missing", report, "no such file"),))
        self._own_problems.extend(found.problems)
        return found

    def exists_output(self, rel: str) -> bool:
        """True when ``outputs/<rel>`` is a regular file inside the run (even a huge one)."""
        safe = safe_relative(rel)
        if safe is None:
            return False
        found = locate(self.path, f"outputs/{safe}", join_report(self._base, f"outputs/{safe}"))
        return found.exists and all(p.code == "too-large" for p in found.problems)

    def load(self) -> Run:
        """Read every file of the run now (for ``show`` and for timing); returns self."""
        for name in ("transcript", "response", "metrics", "timing", "user_notes", "_listing"):
            getattr(self, name)
        return self

    def release(self) -> None:
        """Forget what was read, so a graded run holds no parsed files.

        Grading thousands of runs in one process would otherwise keep every parsed
        transcript alive, and the garbage collector would scan them all again and
        again. Anything asked for later is read anew."""
        for name in ("transcript_file", "transcript", "response", "metrics", "timing",
                     "user_notes", "_listing", "_import_warnings", "source_map", "no_record", "every_call",
                     "unimported_log", "uncounted_calls"):
            self.__dict__.pop(name, None)
        self._outputs.clear()

    @property
    def problems(self) -> list[Problem]:
        """Every problem met so far (files not yet read add theirs when read), sorted."""
        found = list(self._own_problems)
        loaded = self.__dict__
        if "transcript" in loaded:
            found.extend(self.transcript.problems)
        for name in ("response", "metrics", "timing"):
            if loaded.get(name) is not None:
                found.extend(loaded[name].problems)
        if "user_notes" in loaded:
            found.extend(self.user_notes.problems)
        found.extend(self._import_warnings)
        if "response" in loaded:
            found.extend(response_problems(self._base, self.response_named, self.response))
        return sort_problems(found)

    @cached_property
    def source_map(self) -> tuple[SourceMap | None, tuple[Problem, ...]]:
        """``(SourceMap or None, problems)`` of an imported run, read once: the report
        translates evidence through it and the import warnings check it."""
        return self._read_source_map()

    def _read_source_map(self) -> tuple[SourceMap | None, tuple[Problem, ...]]:
        found = json_file(self._text(SOURCE_MAP), self._base)
        if found is None:  # no map (a run not imported): the importers package is not loaded for it
            return None, ()
        from referee.engine.run.importers.source_map import source_map_of

        return source_map_of(found, self.path, join_report(self._base, SOURCE_MAP), self._held())

    @cached_property
    def every_call(self) -> Calls:
        """The calls the language's ``calls`` reads: the main agent's and its
        subagents', and why the list may be incomplete (``engine.run.agents``)."""
        from referee.engine.run.agents import every_call

        return every_call(self, self._text)

    def calls_incomplete(self) -> str | None:
        """``every_call.incomplete()``, found without parsing a transcript when the calls
        were not read yet (``engine.run.agents.calls_unknown``)."""
        from referee.engine.run.agents import calls_unknown, incomplete

        read = self.__dict__.get("every_call")
        return read.incomplete() if read is not None else incomplete(calls_unknown(self, self._text))

    @cached_property
    def uncounted_calls(self) -> Problem | None:
        """Why the transcript lacks calls: ``metrics.json`` counts more, the file ends
        inside a record, or its records' numbers skip a section, or a line looks like a record heading but is
        not one; read once for the calls and for the run's warnings (``engine.run.uncounted``)."""
        from referee.engine.run.uncounted import cut_in_record, near_record, steps_missing, uncounted

        return (uncounted(self) or cut_in_record(self) or steps_missing(self)
                or near_record(self, parsed="transcript" in self.__dict__))

    @cached_property
    def unimported_log(self) -> Problem | None:
        """For a run with no transcript: the session log lying in its ``outputs/`` that
        was never imported (``unimported-transcript``), which holds its calls, notes
        and answer. Nothing read from the run can stand for what that log holds."""
        if self.transcript_file is not None:
            return None
        return next((p for p in self._import_warnings if p.code == "unimported-transcript"), None)

    @cached_property
    def _import_warnings(self) -> tuple[Problem, ...]:
        """Import problems, and whether the run is what it seems (engine.run.run_warnings)."""
        from referee.engine.run.run_warnings import run_warnings

        return tuple(run_warnings(self))


def sort_problems(problems: Iterable[Problem]) -> list[Problem]:
    """Deduplicated, in a stable order: by path, line, code, message."""
    unique = set(problems)
    keys = {path: natural_key(path) for path in {p.path for p in unique}}  # each path's once: most share one
    return sorted(unique, key=lambda p: (keys[p.path], p.line or 0, p.code, p.message))


# --- identity (engine.run.identity) -----------------------------------------------------


def _build_run(run_dir: Path, rel: str, reader: MetadataReader, prefix: tuple[str, ...] = (),
               responses: ResponseFiles = NO_FILES, repeated: KeptApart = KeptApart()) -> Run:
    """A Run for ``run_dir``; ``rel`` is "." for a run loaded on its own. ``repeated``:
    the eval ids that evals in other folders share (``kept_apart.KeptApart``)."""
    run_id, metadata, problems = identify(run_dir, rel, reader, prefix)
    if run_id.eval_id in repeated:
        run_id = repeated.apply(run_id)
    return Run(run_dir, run_id, metadata, problems, responses)


def load_run(run_dir: Path, workspace: Path | None = None, responses: ResponseFiles = NO_FILES) -> Run:
    """Load one run directory; ids come from metadata, else from the folder names.

    With ``workspace`` the run's ``rel`` and problem paths are relative to it;
    without, ``rel`` is "." and problem paths are relative to the run directory.
    ``responses`` names the response files harnesses deliver (``engine.run.reading``).
    """
    run_dir = Path(os.path.abspath(run_dir))
    rel = "." if workspace is None else run_dir.relative_to(Path(os.path.abspath(workspace))).as_posix()
    return _build_run(run_dir, rel, MetadataReader(), responses=responses)


# Discovery's names, importable from here as they always were: loaded on first use,
# since discovery builds its runs with this module's Run.
_DISCOVERY = frozenset({"Discovery", "RunList", "discover", "run_folder", "_may_hold_metadata"})


def __getattr__(name: str):
    if name in _DISCOVERY:
        from referee.engine.run import discovery

        return getattr(discovery, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
