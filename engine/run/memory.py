"""A run held in memory: the same Run, its files given as a dict instead of a folder.

Tests and library users build runs from text with ``memory_run`` and get exactly
what a run on disk gives: the same transcript parser, decoding, JSON reading and
problems, because only the lowest layer (where bytes come from) differs. A run an
import renders in memory is also given where the writer put each heading of its
transcript, which it then reads from those lines (``engine.run.transcript_direct``):
the transcript the parser would read, without parsing the text again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from referee.engine.run.identity import RUN_DIGITS, SOURCE_MAP
from referee.engine.run.model import Problem, RunId, TextFile, Transcript
from referee.engine.run.reading import NO_FILES, ResponseFiles
from referee.engine.run.safeio import held_text_file, join_report, safe_relative
from referee.engine.run.transcript import TRANSCRIPT
from referee.engine.run.transcript_direct import Layout, direct_transcript
from referee.engine.run.workspace import Run

if TYPE_CHECKING:
    from referee.engine.run.importers.source_map import SourceMap

Content = str | bytes
MAX_RUN_NUMBER = 10 ** RUN_DIGITS - 1  # run-<n> is read as a run folder up to nine digits


def held_files(files: Mapping[str, Content]) -> dict[str, Content]:
    """``files`` by the path a folder holds each at (``./outputs//x.md`` is ``outputs/x.md``).

    ValueError naming a path no folder could hold a file at (absolute, with a ``..``
    part, empty), or a second path naming the same file: the first would never be
    read and the second would silently drop a text, so that a check that a file does
    not say something could pass on a file that says it."""
    if not isinstance(files, Mapping):
        raise TypeError(f"files must be a mapping {{path: text or bytes}}, not {type(files).__name__}")
    held: dict[str, Content] = {}
    for name, data in files.items():
        if not isinstance(name, str):  # pathlib would raise naming neither the argument nor the key
            raise TypeError(f"files: a file's path is a str, not {type(name).__name__}: {name!r}")
        path = PurePosixPath(name)
        if path.is_absolute() or ".." in path.parts or not path.parts:
            raise ValueError(f"{name!r}: a file held in memory is named by its path in the folder, "
                             "relative and without '..'")
        if "\0" in name:  # no file system holds such a name (a lone surrogate is a name's byte not UTF-8: kept)
            raise ValueError(f"files: {name!r} is no file name a folder holds (it holds a NUL)")
        if str(path) in held:
            raise ValueError(f"{name!r}: names the file {str(path)!r} another path names too; give each file once")
        held[str(path)] = _content(name, data)
    return held


def _content(name: str, data: object) -> Content:
    """A file's text or bytes; any other bytes-like object is its bytes. TypeError
    naming the file for anything else, and ValueError for a text no UTF-8 file holds
    (``_encodable``), which the readers would meet far from here."""
    if isinstance(data, str):
        _encodable(name, data)
        return data
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"{name!r}: a file held in memory is str or bytes, not {type(data).__name__}")


def _encodable(name: str, text: str) -> None:
    """ValueError naming the file and line of a lone surrogate in ``text``: no UTF-8
    file holds one, so the readers, which read a file's bytes, could not read this one
    (a file whose bytes are not UTF-8 is given as its bytes)."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        line = text.count("\n", 0, err.start) + 1
        raise ValueError(f"{name!r}: line {line} holds a lone surrogate ({text[err.start]!r}), which no UTF-8 "
                         "file holds; give the file's bytes") from None


class MemoryRun(Run):
    """A ``Run`` whose files are ``{path relative to the run dir: text or bytes}``.

    ``source_map`` is the map of a run imported in memory, given as the data
    ``source_map.json`` would hold (``importers.writer.RunFiles``), so it is not
    written as JSON only to be read back; ``layout`` is where the writer put each
    heading of ``outputs/transcript.md`` (``importers.writer.RunFiles.layout``).
    ``parsed_like`` is a run whose transcript this one takes as it was read and
    parsed there when both are one run (its id) and their texts are the same (the
    critique's mutants that keep the calls and notes): the same file read, the same parse."""

    def __init__(self, files: Mapping[str, Content], run_id: RunId, metadata: dict | None = None,
                 responses: ResponseFiles = NO_FILES, problems: tuple[Problem, ...] = (),
                 source_map: SourceMap | None = None, layout: Layout | None = None,
                 parsed_like: MemoryRun | None = None):
        super().__init__(Path("/<memory>"), run_id, dict(metadata or {}), problems, responses=responses)
        self._files = held_files(files)
        self._source_map = source_map
        self._layout = layout
        if parsed_like is not None and parsed_like.id == run_id and \
                self._files.get(TRANSCRIPT) == parsed_like._files.get(TRANSCRIPT):
            # Run's own cached properties, filled as reading would fill them
            self.__dict__.update(transcript_file=parsed_like.transcript_file, transcript=parsed_like.transcript)

    @property
    def files(self) -> Mapping[str, Content]:
        """The run's files, by path relative to the run dir (``outputs/transcript.md``),
        ``source_map.json`` among them when the map was given as data."""
        if self._source_map is None:
            return self._files
        return {**self._files, SOURCE_MAP: self._map_text}

    @cached_property
    def _map_text(self) -> str:
        from referee.engine.run.importers.source_map import dumps  # the importers load when used

        return dumps(self._source_map) if self._source_map is not None else ""

    def _text(self, rel: str, lossy: bool = True) -> TextFile | None:
        data = self._files.get(rel)
        if data is None:
            return None
        return held_text_file(data.encode("utf-8") if isinstance(data, str) else data, rel, self._base, lossy=lossy)

    def _parsed(self, text: str, rel: str) -> Transcript:
        """The transcript an import wrote, made from the ``layout`` the writer gave
        (``engine.run.transcript_direct``) where it can be, else parsed."""
        if self._layout is not None and rel == TRANSCRIPT:
            direct = direct_transcript(text, self._layout, rel, join_report(self._base, rel))
            if direct is not None:
                return direct
        return super()._parsed(text, rel)

    def _exists(self, rel: str) -> bool:
        return rel in self._files

    def _held(self) -> Mapping[str, Content]:
        return self._files

    def _read_source_map(self) -> tuple[SourceMap | None, tuple[Problem, ...]]:
        if self._source_map is None:
            return super()._read_source_map()
        return replace(self._source_map, run_dir=str(self.path), held=self._files), ()

    @cached_property
    def _listing(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(sorted(name.removeprefix("outputs/") for name in self._files if name.startswith("outputs/"))), ()

    def exists_output(self, rel: str) -> bool:
        safe = safe_relative(rel)
        return safe is not None and f"outputs/{safe}" in self._files


def memory_run(files: Mapping[str, Content], *, eval_id: str = "1", configuration: str = "with_skill",
               run_number: int = 1, eval_name: str | None = None, metadata: dict | None = None,
               rel: str | None = None, response: str | os.PathLike[str] | None = None) -> MemoryRun:
    """A run from ``{path: content}``, paths relative to the run directory
    (``"outputs/transcript.md"``, ``"timing.json"``, ...); ``response`` names the
    file that is its response (``referee grade --response``): a str or a Path.
    TypeError naming an argument of another type: an eval id given as a number
    would match no eval of the rules, and the run would be left out unsaid."""
    if isinstance(response, os.PathLike):
        response = os.fspath(response)
    _typed(str, eval_id=eval_id, configuration=configuration)
    _typed((str, type(None)), eval_name=eval_name, rel=rel, response=response)
    _typed((Mapping, type(None)), metadata=metadata)
    if not isinstance(run_number, int) or isinstance(run_number, bool):
        raise TypeError(f"run_number must be an int, not {type(run_number).__name__}: {run_number!r}")
    if not 0 <= run_number <= MAX_RUN_NUMBER:
        raise ValueError(f"run_number={run_number!r}: a run folder run-<n> numbers it 0 to {MAX_RUN_NUMBER}")
    for name, value in (("eval_id", eval_id), ("configuration", configuration), ("eval_name", eval_name)):
        if value is not None and not _folder_name(value):
            # it names a folder of the run's path: a '/' would make other folders of it
            raise ValueError(f"{name}={value!r}: it names a folder, so it is not empty, '.' or '..', and holds "
                             "no '/' or NUL")
    if rel is not None and (not rel or PurePosixPath(rel).is_absolute() or ".." in PurePosixPath(rel).parts
                            or "\0" in rel):
        # the results name the run by it, and a caller writes its reports there
        raise ValueError(f"rel={rel!r}: a run's path in the workspace is relative, without '..' or NUL")
    where = rel if rel is not None else f"eval-{eval_id}/{configuration}/run-{run_number}"
    return MemoryRun(files, RunId(where, eval_id, eval_name, configuration, run_number), metadata,
                     ResponseFiles(response))


def _folder_name(text: str) -> bool:
    return text not in ("", ".", "..") and "/" not in text and "\0" not in text


def _typed(kind: type | tuple[type, ...], **arguments: object) -> None:
    for name, value in arguments.items():
        if not isinstance(value, kind):
            raise TypeError(f"{name} must be {_names(kind)}, not {type(value).__name__}: {value!r}")


def _names(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join("None" if k is type(None) else k.__name__ for k in kinds)
