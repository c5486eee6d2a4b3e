"""The run model: plain, frozen records of what one evaluation run left on disk.

Loaders (``engine.run.transcript``, ``engine.run.workspace``) build these; checks read them.
Every element keeps where it came from, so evidence can point at a file and line.
Paths inside these records are POSIX paths relative to the run directory, never
absolute: nothing machine-specific may leak into graded output.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from referee.dsl.frozen import frozen

# Evidence sources, ranked by trust (most trusted first). A PASS must rest on one
# of the first three; agent notes and other agent prose are interpretation only.
# ``harness`` is text the harness injected (the eval prompt, user turns, hook
# feedback, system reminders, compaction summaries): what the harness said, never
# the agent's words and never proof of a call. ``suspect_calls`` are tool-call
# records that broke the record grammar (docs/threat-model.md): they are read as
# agent text, and a PASS that rests on one, even in part, is a FAIL.
SOURCES = ("tool_calls", "response", "outputs", "metrics", "timing", "metadata", "harness",
           "agent_notes", "suspect_calls")
AGENT_SOURCES = frozenset({"agent_notes", "suspect_calls"})
# The kinds of transcript text: a Note's ``kind`` and the evidence source of its text.
TEXT_KINDS = ("agent_notes", "harness")
# Problem codes that mean a file could not be read exactly: evidence read from such
# a file is never used, so a check on it is an ERROR rather than a check on nothing.
UNREADABLE = frozenset({"binary", "document", "not-utf8", "not-utf16", "too-large", "unreadable", "not-a-file", "name-case",
                        "symlink-escape", "symlink-loop", "broken-symlink", "bad-response"})
# The import problem that makes every check over the harness text an ERROR: the import
# skipped text that may be a turn of the user or the harness (a message of a role the
# format does not have), so the harness text read may lack it.
HARNESS_MAY_BE_MISSING = "harness-may-be-missing"


@frozen
class Location:
    """A place in a run: a file relative to the run directory and a 1-based line."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


@frozen
class Problem:
    """Something wrong with an input, reported as a warning; loading goes on.

    ``code`` is stable (``bad-json``, ``not-utf8``, ``too-large``, ``symlink-escape``,
    ...); ``path`` is relative to the workspace or run directory the loader was given.
    """

    code: str
    path: str
    message: str
    line: int | None = None

    @property
    def place(self) -> str:
        """Where it is: the path, and its line when known (``path:line``)."""
        return self.path if self.line is None else f"{self.path}:{self.line}"

    def __str__(self) -> str:
        return f"{self.place}: warning[{self.code}]: {self.message}"


@frozen
class Payload:
    """An ``Args:`` or ``Return:`` value of a tool call.

    ``value`` is the parsed JSON when ``is_json`` is true, else the raw text.
    ``line`` is the line where the value's text starts.
    """

    text: str
    value: Any
    is_json: bool
    line: int


@frozen
class ToolCall:
    """One ``## [tool_calls]`` record: system data, the most trusted evidence.

    ``suspect`` says why a record is not trusted (None for a trusted one): such a
    record is listed in ``Transcript.suspect_calls``, never in ``calls``. ``unsure``
    names the fields (``args``, ``return``, ``status``, ``tool``) that a suspect
    record cannot give for certain; a check that asks for one is an ERROR. A trusted
    record is unsure of a field only when an import could not show it whole (a
    value cut or not JSON in its source: ``engine.run.agents``), and then of its
    ``title`` too when of its tool, which the import titles it by. ``agent`` is whose
    call it is: ``main``, or the subagent's name (``step-3``: the one started by
    the main agent's call at step 3).
    """

    index: float  # position among all transcript elements, 0-based (orders calls and notes): a
    # whole number, but for a subagent's call, which sits between its Task call's and the next one
    step: int | None  # the "Step N" of the heading, when it has one
    title: str  # heading text after "Step N:"
    tool: str | None
    args: Payload | None
    result: Payload | None
    status: str | None  # "success", "error", or the word as written
    location: Location  # the heading line
    status_line: int | None = None
    tool_line: int | None = None
    suspect: str | None = None
    unsure: frozenset[str] = frozenset()
    agent: str = "main"


@frozen
class Note:
    """A section of transcript text that is not a tool-call record.

    ``kind`` is ``agent_notes`` for the agent's words (``## [agent_notes]`` blocks,
    any untagged section such as ``## Final Result`` or a free-form ``### Step N``
    log, and records read as agent text because they broke the record grammar) or
    ``harness`` for text the harness injected (``## [harness] <title>`` sections
    and ``## Eval Prompt``). ``tagged`` is true when the heading carried the tag.
    ``text_line`` is the line of the text's first character.
    """

    index: int
    step: int | None
    title: str
    text: str
    kind: str
    location: Location  # the heading line; the body starts on the next line
    tagged: bool = False
    text_line: int | None = None
    is_eval_prompt: bool = False  # the eval prompt section; decided by the parser alone


@frozen
class Transcript:
    """A parsed transcript. ``calls`` are the trusted tool-call records only;
    ``suspect_calls`` the records that broke the grammar (each also in ``notes``,
    as agent text). ``unreadable`` is the problem that kept the file from being
    read exactly: then nothing here may be used as evidence."""

    calls: tuple[ToolCall, ...] = ()
    notes: tuple[Note, ...] = ()
    problems: tuple[Problem, ...] = ()
    prompt: str | None = None  # the "## Eval Prompt" section, when present
    suspect_calls: tuple[ToolCall, ...] = ()
    unreadable: Problem | None = None


@frozen
class TextFile:
    """A file read as text. ``text`` is None when the file could not be used.

    A part of a file (the ``## Final Result`` section of an executor log) is one
    too: ``line`` is then the line of ``path`` its text starts on, and ``section``
    the heading it stands under; both are None for a whole file."""

    path: str  # relative to the run directory, e.g. "outputs/response.md"
    text: str | None
    size: int
    problems: tuple[Problem, ...] = ()
    line: int | None = None
    section: str | None = None

    @property
    def unreadable(self) -> Problem | None:
        """The problem that kept the file from being read exactly, if any (its
        ``text`` may still hold a lossy decoding, for display only)."""
        return next((p for p in self.problems if p.code in UNREADABLE), None)

    @cached_property
    def sha256(self) -> str | None:
        """The SHA-256 of the text's UTF-8 (a lone surrogate as itself), as hex; None
        without a text. Found once: each reader of an imported run's view asks whether
        it is the text the import wrote (``import_views.as_written``)."""
        return None if self.text is None else text_sha256(self.text)


def text_sha256(text: str) -> str:
    """The SHA-256 of a text's UTF-8, a lone surrogate written as itself (as a file holding
    it was read), as hex: the digest an import records of each file it writes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@frozen
class JsonFile:
    """A file read as JSON. ``value`` is None when it is missing or unusable."""

    path: str
    value: Any
    problems: tuple[Problem, ...] = ()


@frozen
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
