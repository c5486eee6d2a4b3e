"""Reading an import source without trusting it.

A source may be huge, cut short, not UTF-8, or hold lines that are not JSON. The
reader never raises on what it finds: each defect is a ``Problem`` naming the
source file and line, and every readable line is still returned.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.run.model import Problem
from referee.engine.run.safeio import MAX_JSON_DEPTH, depth_exceeded

# A session log holds every tool result in full, so it is allowed to be much
# larger than a transcript (safeio.MAX_TEXT_BYTES); what is written stays under it.
MAX_SOURCE_BYTES = 512 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Source:
    """A source file: its name (no folder, so nothing machine-specific is kept),
    its lines as text, and the problems met while reading it."""

    name: str
    lines: tuple[str, ...]
    ends_with_newline: bool
    problems: tuple[Problem, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def read_source(path: Path, name: str | None = None) -> Source:
    """Read ``path`` as UTF-8 lines; bad bytes are replaced and reported per line."""
    name = name or path.name
    try:
        size = path.stat().st_size
        if size > MAX_SOURCE_BYTES:
            message = f"over the {MAX_SOURCE_BYTES}-byte import limit; not read"
            return Source(name, (), True, (Problem("too-large", name, message),))
        data = path.read_bytes()
    except OSError as exc:
        return Source(name, (), True, (Problem("unreadable", name, f"cannot read: {exc.strerror or exc}"),))
    return decode_source(data, name)


def decode_source(data: bytes, name: str) -> Source:
    """Bytes to lines: BOM dropped, CRLF read as a line end, bad UTF-8 reported on its line."""
    data = data.removeprefix(_BOM)
    problems: list[Problem] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = _decode_lines(data, name, problems)
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        problems.append(Problem("nul-byte", name, "NUL byte in the source; replaced by U+FFFD", line))
        text = text.replace("\x00", "\ufffd")
    ends = text.endswith("\n")
    lines = text.split("\n")
    if ends:
        lines.pop()
    return Source(name, tuple(line.removesuffix("\r") for line in lines), ends, tuple(problems))


def _decode_lines(data: bytes, name: str, problems: list[Problem]) -> str:
    parts = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            parts.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            message = f"byte 0x{raw[exc.start]:02x} is not UTF-8; kept with replacement characters"
            problems.append(Problem("not-utf8", name, message, number))
            parts.append(raw.decode("utf-8", errors="replace"))
    return "\n".join(parts)


def loads(text: str) -> tuple[Any] | None:
    """``(value,)`` for JSON text within the depth limit, else None; never raises."""
    if depth_exceeded(text, MAX_JSON_DEPTH) is not None:
        return None
    try:
        return (json.loads(text),)
    except (ValueError, RecursionError):
        return None


def json_container(text: str) -> tuple[Any] | None:
    """``(value,)`` when ``text`` starts (after whitespace) like a JSON object or
    array and :func:`loads` reads it, else None; never raises."""
    return loads(text) if text.lstrip()[:1] in ("{", "[") else None


def json_lines(source: Source) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """``(line number, value)`` for each JSON line, and the problems of the source.

    Blank lines are skipped. A line that is not JSON is reported (``bad-json``), or
    as ``truncated`` when it is the last line and has no line end (a log cut while
    being written), and skipped; the lines after it are still read.
    """
    problems = list(source.problems)
    values: list[tuple[int, Any]] = []
    last = len(source.lines)
    for number, line in enumerate(source.lines, 1):
        if not line.strip():
            continue
        found = loads(line)
        if found is not None:
            values.append((number, found[0]))
        elif number == last and not source.ends_with_newline:
            problems.append(Problem("truncated", source.name, "last line is cut short (not JSON); skipped", number))
        else:
            problems.append(Problem("bad-json", source.name, "line is not JSON; skipped", number))
    return values, problems
