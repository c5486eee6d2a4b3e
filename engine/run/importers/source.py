"""Reading an import source without trusting it.

A source may be huge, cut short, not UTF-8, or hold lines that are not JSON. The
reader never raises on what it finds: each defect is a ``Problem`` naming the
source file and line, and every readable line is still returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.exact import loads
from referee.engine.run.model import Problem
from referee.engine.run.safeio import MAX_JSON_DEPTH, depth_exceeded, read_named_file

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
    """Read ``path`` as UTF-8 lines; bad bytes are replaced and reported per line.

    Through the safe reader: a FIFO, a device or a file over ``MAX_SOURCE_BYTES`` is
    a problem of the source (nothing read), never a stall or a crash."""
    name = name or path.name
    data, problem = read_named_file(path, name, MAX_SOURCE_BYTES)
    if data is None:
        return Source(name, (), True, (problem,) if problem is not None else ())
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


def json_container(text: str) -> tuple[Any] | None:
    """``(value,)`` when ``text`` starts (after whitespace) like a JSON object or
    array and :func:`loads` reads it, else None; never raises."""
    return loads(text) if text.lstrip()[:1] in ("{", "[") else None


def json_lines(source: Source, calls: tuple[str, ...] = ()) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """``(line number, value)`` for each JSON line, and the problems of the source.

    Blank lines are skipped. A line that is not JSON is reported (``bad-json``;
    ``too-deep`` past the nesting limit), or as ``truncated`` when it is the last
    line and has no line end (a log cut while being written), and skipped; the
    lines after it are still read. A skipped line holding one of ``calls`` (the
    words by which the format writes a tool call), or cut short, may have held a call: it is also
    reported as ``calls-may-be-missing``, which makes every check over the run's
    calls an ERROR (``engine.run.agents``).
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
            continue
        cut = number == last and not source.ends_with_newline
        if cut:
            problems.append(Problem("truncated", source.name, "last line is cut short (not JSON); skipped", number))
        elif depth_exceeded(line, MAX_JSON_DEPTH) is not None:
            message = f"JSON nested deeper than {MAX_JSON_DEPTH} levels; skipped"
            problems.append(Problem("too-deep", source.name, message, number))
        else:
            problems.append(Problem("bad-json", source.name, "line is not JSON; skipped", number))
        if calls and (cut or any(word in line for word in calls)):  # what was cut off may be a call
            message = "this line could not be read and may hold a tool call: no check over the run's calls can be decided"
            problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, message, number))
    return values, problems
