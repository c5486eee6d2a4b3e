"""The run model: plain, frozen records of what one evaluation run left on disk.

Loaders (``engine.run.transcript``, ``engine.run.workspace``) build these; checks read them.
Every element keeps where it came from, so evidence can point at a file and line.
Paths inside these records are POSIX paths relative to the run directory, never
absolute: nothing machine-specific may leak into graded output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Evidence sources, ranked by trust (most trusted first). A PASS must rest on one
# of the first three; agent notes and other agent prose are interpretation only.
SOURCES = ("tool_calls", "response", "outputs", "metrics", "timing", "metadata", "agent_notes")
AGENT_SOURCES = frozenset({"agent_notes"})


@dataclass(frozen=True)
class Location:
    """A place in a run: a file relative to the run directory and a 1-based line."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Problem:
    """Something wrong with an input, reported as a warning; loading goes on.

    ``code`` is stable (``bad-json``, ``not-utf8``, ``too-large``, ``symlink-escape``,
    ...); ``path`` is relative to the workspace or run directory the loader was given.
    """

    code: str
    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: warning[{self.code}]: {self.message}"


@dataclass(frozen=True)
class Payload:
    """An ``Args:`` or ``Return:`` value of a tool call.

    ``value`` is the parsed JSON when ``is_json`` is true, else the raw text.
    ``line`` is the line where the value's text starts.
    """

    text: str
    value: Any
    is_json: bool
    line: int


@dataclass(frozen=True)
class ToolCall:
    """One ``## [tool_calls]`` block: system data, the most trusted evidence."""

    index: int  # position among all transcript elements, 0-based (orders calls and notes)
    step: int | None  # the "Step N" of the heading, when it has one
    title: str  # heading text after "Step N:"
    tool: str | None
    args: Payload | None
    result: Payload | None
    status: str | None  # "success", "error", or the word as written
    location: Location  # the heading line
    status_line: int | None = None
    tool_line: int | None = None


@dataclass(frozen=True)
class Note:
    """Agent-written text: an ``## [agent_notes]`` block or any other section.

    ``kind`` is ``agent_notes`` for a tagged block and ``prose`` for other sections
    (``## Eval Prompt``, free-form ``### Step N`` logs). Both carry agent-note trust.
    """

    index: int
    step: int | None
    title: str
    text: str
    kind: str
    location: Location  # the heading line; the body starts on the next line


@dataclass(frozen=True)
class Transcript:
    calls: tuple[ToolCall, ...] = ()
    notes: tuple[Note, ...] = ()
    problems: tuple[Problem, ...] = ()
    prompt: str | None = None  # the "## Eval Prompt" section, when present


@dataclass(frozen=True)
class TextFile:
    """A file read as text. ``text`` is None when the file could not be used."""

    path: str  # relative to the run directory, e.g. "outputs/response.md"
    text: str | None
    size: int
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class JsonFile:
    """A file read as JSON. ``value`` is None when it is missing or unusable."""

    path: str
    value: Any
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class UserNotes:
    uncertainties: tuple[str, ...] = ()
    needs_review: tuple[str, ...] = ()
    workarounds: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class RunId:
    """Where a run sits in its workspace; ``rel`` is relative to the workspace root."""

    rel: str
    eval_id: str  # as a string: "1", "sales-summary"; compared as text
    eval_name: str | None
    configuration: str
    run_number: int
    iteration: int | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)
