"""The source map: which line of an original source each written line came from.

``referee import`` writes ``source_map.json`` into every run folder it makes. It
names the import format and the source files (by name only, never a folder), maps
each line of the files it wrote (``outputs/transcript.md``, ``outputs/response.md``,
subagent transcripts) to ``(source, line)``, keeps the problems met while
importing, so ``show`` and ``grade`` can report them, and the SHA-256 of each file
it wrote: the source is the record and these files only a view of it, so a view
changed after the import is reported. ``unread`` names the calls whose Args or
Return the view could not show as the source holds them (cut, or not JSON):
grading reads those fields as unknown (``engine.run.agents``). ``options`` keeps
how the import read the source (``--error-when``); ``origin`` the SHA-256 of the
source it was read from (``#k``: the k-th conversation of it), so that importing
another source of the same name never replaces the run (``importers.naming``).

Evidence that points at a written line is translated through the map, so a report
names the original file and line (``session.jsonl:42``), which a reader can open.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from referee.engine.run.model import JsonFile, Problem, TextFile
from referee.engine.run.safeio import held_text_file, read_json, read_text
from referee.engine.text import surrogates_escaped

SOURCE_MAP = "source_map.json"
VERSION = 1


@dataclass(frozen=True)
class SourceMap:
    """``lines[file][n - 1]`` is ``(source index, line)`` for line n of a written file
    (``(source index, line, JSON Pointer, column)`` where the source line holds many
    things), or None. In the map of a run graded in memory the column may be None,
    found by ``columns`` when the place is asked for (``place``, ``dumps``)."""

    format: str
    sources: tuple[str, ...]
    lines: dict[str, tuple] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()

    digests: dict[str, str] = field(default_factory=dict)  # written file -> sha256 of its UTF-8 text
    # written file -> {heading line of a call: the fields ("args", "return") the view cannot show whole}
    unread: dict[str, dict[int, tuple[str, ...]]] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)  # how the source was read: {"error_when": REGEX}
    origin: str = ""  # the source's SHA-256 (and "#k" for its k-th conversation); "" in older maps
    run_dir: str | None = field(default=None, compare=False)  # to read written files; never written out
    # the written files of a run held in memory (engine.run.memory), read instead of run_dir's
    held: Mapping[str, str | bytes] | None = field(default=None, compare=False, repr=False)
    # of a run graded in memory: the column of a place given by its JSON Pointer alone
    # (column None), found when the place is asked for (``record.Conversation.columns``)
    columns: Callable[[str, str], int | None] | None = field(default=None, compare=False, repr=False)
    _read: dict = field(default_factory=dict, compare=False, repr=False)

    def where(self, file: str | None, line: int | None, quote: str = "") -> tuple[str, int] | None:
        """The source file and line of ``file:line`` (relative to the run), if mapped.

        Evidence about a section points at its heading; with ``quote``, the line of
        the section that holds the quote is taken instead, when there is one, so a
        multi-line source (a Markdown log) is cited at the quoted line itself.
        """
        found = self.place(file, line, quote)
        return None if found is None else (self.sources[found[0]], found[1])

    def place(self, file: str | None, line: int | None, quote: str = "") -> tuple[int, int, str, int | None] | None:
        """``(source index, line, JSON Pointer, column)`` of ``file:line``, if mapped
        (the pointer is ``""`` and the column None unless the source line holds many
        things); with ``quote``, as ``where`` takes it."""
        if file is None or line is None:
            return None
        if quote:
            line = self.quoted_line(file, line, quote)
        mapped = self.lines.get(file)
        if mapped is None or not 1 <= line <= len(mapped) or mapped[line - 1] is None:
            return None
        return self.found(mapped[line - 1])

    def found(self, place: tuple) -> tuple[int, int, str, int | None]:
        """``(source index, line, JSON Pointer, column)`` of a mapped ``place``, its column
        found now when it was left to be found (``columns``)."""
        index, source_line, *rest = place
        if not rest:
            return index, source_line, "", None
        pointer, column = rest
        if column is None and pointer and self.columns is not None:
            column = self.columns(self.sources[index], pointer)
        return index, source_line, pointer, column

    def cite(self, file: str | None, line: int | None) -> str | None:
        """``file:line`` as a reader finds it in the source: ``session.jsonl:42``, or in
        a line that holds many things ``chat.jsonl:1:5234#/12/tool_calls/0/function/arguments``."""
        found = self.place(file, line)
        if found is None:
            return None
        index, source_line, pointer, column = found
        place = f"{self.sources[index]}:{source_line}" + (f":{column}" if column is not None else "")
        return place + (f"#{pointer}" if pointer else "")

    def written_line(self, file: str, line: int) -> str | None:
        """Line ``line`` of the written file ``file`` (read through the safe reader)."""
        lines = self._written(file)
        return lines[line - 1] if 1 <= line <= len(lines) else None


    def quoted_line(self, file: str, line: int, quote: str) -> int:
        """The line of the section at ``file:line`` that holds ``quote`` (``line`` itself when none does)."""
        lines = self._written(file)
        needle = quote.removesuffix("…").strip()
        if not needle or not lines:
            return line
        for number in range(line, len(lines) + 1):
            text = lines[number - 1]
            if number > line and text.startswith("## ["):
                break  # the next section: the quote is not in this one
            if needle in text:
                return number
        return line

    def _written(self, file: str) -> list[str]:
        if file not in self._read:
            self._read[file] = []
            found = self._written_file(file) if file in self.lines else None
            if found is not None and found.text is not None and found.unreadable is None:
                self._read[file] = found.text.split("\n")
        return self._read[file]

    def _written_file(self, file: str) -> TextFile | None:
        """A written file as the run reads it: held in memory, or in the run folder
        through the safe reader (regular files, bounded)."""
        if self.held is not None:
            data = self.held.get(file)
            if data is None:
                return None
            return held_text_file(data.encode("utf-8") if isinstance(data, str) else data, file)
        return None if self.run_dir is None else read_text(Path(self.run_dir), file)


def dumps(source_map: SourceMap) -> str:
    """The map as deterministic JSON text (sorted keys, one line per written file)."""
    lines = {name: [None if o is None else list(o) if len(o) < 4 else list(source_map.found(o)) for o in mapped]
             for name, mapped in sorted(source_map.lines.items())}
    document = {
        "version": VERSION,
        "format": source_map.format,
        "sources": list(source_map.sources),
        "problems": [{"code": p.code, "path": p.path, "line": p.line, "message": p.message}
                     for p in source_map.problems],
        "sha256": dict(sorted(source_map.digests.items())),
        "lines": lines,
    }
    if source_map.unread:
        document["unread"] = {name: [[line, list(fields)] for line, fields in sorted(calls.items())]
                              for name, calls in sorted(source_map.unread.items())}
    if source_map.options:
        document["options"] = dict(sorted(source_map.options.items()))
    if source_map.origin:
        document["origin"] = source_map.origin
    head = json.dumps({k: v for k, v in document.items() if k != "lines"}, ensure_ascii=False,
                      sort_keys=True)[:-1]
    # A source named with a byte that is not UTF-8 holds a lone surrogate ("\udcff"),
    # which no UTF-8 writer or digest encodes: it is kept as that JSON escape, which
    # reads back as the same name (as writer._put keeps one in a run's texts).
    head = surrogates_escaped(head)
    body = ",\n".join(f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, separators=(',', ':'))}"
                      for k, v in lines.items())
    return f'{head}, "lines": {{\n{body}\n}}}}\n'


def load_source_map(run_dir: Path) -> tuple[SourceMap | None, tuple[Problem, ...]]:
    """The run's source map, or None when it has none; a broken map is a problem, never a crash."""
    return source_map_of(read_json(run_dir, SOURCE_MAP), run_dir)


def source_map_of(found: JsonFile | None, run_dir: Path, report: str = SOURCE_MAP,
                  held: Mapping[str, str | bytes] | None = None) -> tuple[SourceMap | None, tuple[Problem, ...]]:
    """The source map in ``found`` (``source_map.json`` as read by the run's own reader,
    so a run held in memory has one too, its written files ``held``), or None when
    there is none. ``report`` is the map's path in problems."""
    if found is None:
        return None, ()
    if found.value is None:
        return None, found.problems
    parsed = _parse(found.value, str(run_dir))
    if parsed is None:
        return None, found.problems + (Problem("bad-source-map", report, "not a source map referee wrote; ignored"),)
    return (parsed if held is None else replace(parsed, held=held)), found.problems


def _parse(value: Any, run_dir: str) -> SourceMap | None:
    try:
        sources = tuple(str(s) for s in value["sources"])
        lines = {str(name): tuple(_pair(o, len(sources)) for o in mapped) for name, mapped in value["lines"].items()}
        problems = tuple(Problem(str(p["code"]), str(p["path"]), str(p["message"]), _line(p.get("line")))
                         for p in value.get("problems", ()))
        digests = {str(k): str(v) for k, v in (value.get("sha256") or {}).items()}
        unread = {str(name): {int(line): tuple(str(f) for f in fields) for line, fields in calls}
                  for name, calls in (value.get("unread") or {}).items()}
        options = {str(k): str(v) for k, v in (value.get("options") or {}).items()}
        return SourceMap(str(value["format"]), sources, lines, problems, digests, unread, options,
                         str(value.get("origin") or ""), run_dir)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):  # OverflowError: int() of 1e999
        return None


def _pair(value: Any, count: int) -> tuple | None:
    """``[index, line]``, or ``[index, line, pointer, column]`` in a line of many things."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) not in (2, 4):
        raise ValueError("not a place")
    index, line = int(value[0]), int(value[1])
    if not 0 <= index < count:
        raise ValueError("source index out of range")
    if len(value) == 4:
        return index, line, str(value[2]), None if value[3] is None else int(value[3])
    return index, line


def _line(value: Any) -> int | None:
    return None if value is None else int(value)
