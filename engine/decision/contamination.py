"""SkillSentry's layer 0: did a run see what it must not see?

A baseline run that reads, lists or searches the skill under test, or another
configuration's folder (the other arm's outputs), is contaminated: its numbers
say nothing about running without the skill. Each finding keeps the call as
evidence (step, tool, file and line, the argument that names the path).

How a path is recognised: each string inside a call's arguments (a path, a
glob, a shell command) is searched for the skill folder (the path given with
``--skill-path`` as written and absolute, and its folder name as a path segment)
and for the other configurations' folder names as path segments (``/with_skill/``,
``with_skill/outputs``), in any case: Windows and macOS name one folder in any
case (``c:\\users\\ann\\SKILL``), so a read in another case is a read. A skill path
written with backslashes names its folder by them. Calls that only write (tool
names with write, edit, create, save, delete, remove or move) are not reads and
are left out.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path, PureWindowsPath
from typing import TYPE_CHECKING, Any, Iterable

from referee.dsl.frozen import frozen
from referee.engine.run.agents import SUBAGENT_FILE
from referee.engine.run.model import ToolCall

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

_WRITES = re.compile(r"write|edit|create|save|delete|remove|move|rename", re.I)
_SEGMENT_END = r"(?=$|[/\\\s\"'`;:,)*?\]])"
_SEGMENT_START = r"(?:^|(?<=[/\\\s\"'`=(:]))"
MAX_QUOTE = 160


@frozen
class Finding:
    """One call that touched a forbidden path."""

    step: int | None
    tool: str
    location: str  # "outputs/transcript.md:12"
    target: str  # what it touched: "the skill under test (booking-skill)" or "configuration with_skill"
    quote: str  # the argument text that names it

    def describe(self) -> str:
        step = f"step {self.step} " if self.step is not None else ""
        return f"{step}{self.tool} ({self.location}) reads {self.target}: {self.quote}"


@frozen
class Needles:
    """What a run must not touch: (label, compiled pattern, literal prefilter) triples."""

    items: tuple[tuple[str, re.Pattern, str], ...]

    def __bool__(self) -> bool:
        return bool(self.items)

    @functools.cached_property
    def any_literal(self) -> re.Pattern:
        """Every literal, in any case, as the patterns match it, and as JSON writes it
        (a backslash or a quote escaped) for the Args of a raw transcript."""
        forms = {form for _, _, literal in self.items for form in (literal, json.dumps(literal)[1:-1])}
        return re.compile("|".join(re.escape(form) for form in sorted(forms)), re.IGNORECASE)


def needles(skill_paths: Iterable[str], other_configurations: Iterable[str]) -> Needles:
    """The patterns for one run: the skill's paths, and the other configurations' folders."""
    items = []
    for given in sorted(set(skill_paths)):
        windows = _is_windows_path(given)
        name = (PureWindowsPath(given) if windows else Path(given)).name or given
        label = f"the skill under test ({name})"
        # a Windows path is absolute on its own machine: made absolute here it names nothing
        literals = {given.rstrip("/\\")} | (set() if windows else {os.path.abspath(given)})
        for literal in sorted(s for s in literals if s not in ("", ".", "/")):
            items.append((label, re.compile(re.escape(literal), re.IGNORECASE), literal))
        items.append((label, _segment(name), name))
    for config in sorted(set(other_configurations)):
        items.append((f"configuration {config}'s folder", _segment(config), config))
    return Needles(tuple(items))


def _is_windows_path(given: str) -> bool:
    """A path written as Windows writes it (``C:\\Users\\ann\\skill``, ``..\\skill``): its
    folder name ends at a backslash, which a POSIX path would keep in the name."""
    return "\\" in given or bool(re.match(r"[A-Za-z]:", given))


def _segment(name: str) -> re.Pattern:
    # a folder name as a whole path segment that continues as a path (name/ or /name)
    escaped = re.escape(name)
    return re.compile(rf"{_SEGMENT_START}{escaped}[/\\]|[/\\]{escaped}{_SEGMENT_END}", re.IGNORECASE)


# A JSON escape that can stand for any character (Python's json.dumps writes every
# non-ASCII one so): raw text that holds one may name a path it does not spell out.
_ANY_CHAR_ESCAPE = re.compile(r"\\u[0-9A-Fa-f]{4}")


def might_touch(text: str | None, found: Needles) -> bool:
    """A cheap test on the raw transcript: False means no call can match."""
    if not text or not found:
        return False
    return found.any_literal.search(text) is not None or _ANY_CHAR_ESCAPE.search(text) is not None


def run_findings(run: Run, found: Needles) -> tuple[Finding, ...]:
    """``findings`` over every call of ``run`` the rules see (``Run.every_call``: its
    subagents' too); the transcripts are parsed only when they may name a path."""
    source = run.transcript_file
    source_map = run.source_map[0]
    nested = source_map is not None and any(SUBAGENT_FILE.fullmatch(rel) for rel in source_map.lines)
    if not nested and not might_touch(source.text if source is not None else None, found):
        return ()
    return findings(run.every_call.calls, found)


def unchecked(run: Run) -> str | None:
    """Why ``run`` cannot be shown clean: its calls may be incomplete (a line of its
    source not read, a view changed since its import) or its transcript could not be
    read at all (not UTF-8, too large), and a call not read may be the read of the
    skill; None when every call was read. Neither needs the transcript parsed."""
    return run.calls_incomplete() or _transcript_unread(run)


def _transcript_unread(run: Run) -> str | None:
    """Why the transcript's text could not be read (the checks over its calls are
    errors then); None when it was, or when the run has none."""
    source = run.transcript_file
    if source is None or (source.text is not None and source.unreadable is None):
        return None
    problem = source.unreadable or next(iter(source.problems), None)
    said = f"{problem.path}: {problem.message}" if problem is not None else source.path
    return f"the run's calls could not be read ({said})"


def findings(calls: Iterable[ToolCall], found: Needles) -> tuple[Finding, ...]:
    """Every read-like call whose arguments name a forbidden path, in call order."""
    result = []
    for call in calls:
        tool = call.tool or call.title or "(no tool)"
        if call.args is None or _WRITES.search(tool):
            continue
        if call.agent != "main":
            tool = f"{tool} (subagent {call.agent})"
        for text in _strings(call.args.value if call.args.is_json else call.args.text):
            hit = _first_hit(text, found)
            if hit is not None:
                result.append(Finding(call.step, tool, f"{call.location.file}:{call.args.line}", hit,
                                      _quote(text)))
                break
    return tuple(result)


def _first_hit(text: str, found: Needles) -> str | None:
    for label, pattern, literal in found.items:
        if pattern.search(text):
            return label
    return None


def _strings(value: Any) -> list[str]:
    """Every string inside a JSON value (keys too), depth-first."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            for key, inner in reversed(list(item.items())):
                stack.append(inner)
                stack.append(str(key))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
    return out


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    quoted = json.dumps(flat, ensure_ascii=False)
    return quoted if len(quoted) <= MAX_QUOTE else quoted[: MAX_QUOTE - 2] + "…\""
