"""What SKILL.md tells the agent to use, and whether the runs used it.

SKILL.md names files of the skill (``scripts/validate.py``, ``references/forms.md``)
and tools (```travel_searchFlights```). A file counts as named when SKILL.md
holds its path relative to the skill folder, or a path under ``scripts/``,
``references/``, ``assets/`` or ``templates/`` that the folder lacks; a tool
counts when SKILL.md puts it between backticks and some run of the workspace
calls a tool of that name (or ``mcp__server__name``), or when it is written
``mcp__...``. A run used a file when one of its trusted tool calls holds the
file's path in its arguments (a Read of it, a Bash command running it), and a
tool when it called it. Each finding cites SKILL.md by line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from typing import Iterable, Sequence

from referee.dsl.frozen import frozen
from referee.dsl.named_file import TooLarge, named_bytes
from referee.engine.run.model import ToolCall
from referee.engine.usage import UsageError

SKILL_FILE = "SKILL.md"
MAX_BYTES = 4 * 1024 * 1024
MAX_FILES = 2000  # files of the skill folder looked at
SCRIPTS = frozenset({".py", ".sh", ".bash", ".js", ".mjs", ".ts", ".rb", ".pl", ".ps1"})
_PATHISH = re.compile(r"(?<![\w./-])((?:scripts|references|assets|templates)/[\w./-]*\w)")
_TICKED = re.compile(r"`([A-Za-z_][\w.-]*)`")


@frozen
class Named:
    """Something SKILL.md names that a run could use."""

    kind: str  # script, reference, file, tool
    name: str  # the path relative to the skill folder, or the tool's name
    line: int  # the first line of SKILL.md naming it
    exists: bool = True  # for a file: whether the skill folder has it

    @property
    def verb(self) -> tuple[str, str]:
        """(what using it is called, what not using it is called)."""
        return {"script": ("ran", "never ran"), "tool": ("called", "never called")}.get(
            self.kind, ("opened", "never opened"))

    def used_by(self, calls: Sequence[ToolCall]) -> ToolCall | None:
        """The first call that used it."""
        for call in calls:
            if self.kind == "tool":
                if call.tool is not None and _same_tool(call.tool, self.name):
                    return call
            elif call.args is not None and _mentions(call.args.text, self.name):
                return call
        return None


@frozen
class SkillText:
    path: str  # SKILL.md as shown: "<skill folder name>/SKILL.md"
    named: tuple[Named, ...]


def read(folder: Path, shown: str, tools_seen: Iterable[str]) -> SkillText:
    """What ``folder``'s SKILL.md names; UsageError when it cannot be read."""
    text = _text(folder / SKILL_FILE)
    lines = text.splitlines()
    found: dict[tuple[str, str], Named] = {}
    for rel in _files(folder):
        line = _first_line(lines, lambda s, rel=rel: _mentions(s, rel))
        if line:
            found[("file", rel)] = Named(_kind(rel), rel, line)
    for number, line_text in enumerate(lines, 1):
        for match in _PATHISH.finditer(line_text):
            rel = match.group(1).rstrip(".")
            if ("file", rel) not in found and "." in PurePosixPath(rel).name:
                found[("file", rel)] = Named(_kind(rel), rel, number, exists=False)
    seen = set(tools_seen)
    for number, line_text in enumerate(lines, 1):
        for match in _TICKED.finditer(line_text):
            name = match.group(1)
            if ("tool", name) not in found and (name.startswith("mcp__") or any(_same_tool(t, name) for t in seen)):
                found[("tool", name)] = Named("tool", name, number)
    ordered = sorted(found.values(), key=lambda n: (n.line, n.kind, n.name))
    return SkillText(f"{shown}/{SKILL_FILE}", tuple(ordered))


def _text(path: Path) -> str:
    """SKILL.md's text, read once through the reader that never waits on a FIFO (one
    put in its place after the check below is refused, not read)."""
    try:
        if path.is_symlink() or not path.is_file():
            there = path.is_symlink() or path.exists()  # a link, a FIFO, a folder: named, not read
            raise UsageError(f"{path} is not a regular file; not read" if there
                             else f"no {SKILL_FILE} in the skill folder {path.parent}")
        data = named_bytes(path, MAX_BYTES)
    except TooLarge:
        raise UsageError(f"{path} is over 4 MiB; not read") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UsageError(f"{path}:{line}: not UTF-8 text") from None


def _files(folder: Path) -> list[str]:
    """The skill's files, relative, sorted; SKILL.md, evals/ and hidden names left out,
    symlinks never followed."""
    found: list[str] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__"
                         and not (Path(root) == folder and d == "evals")
                         and not os.path.islink(os.path.join(root, d)))
        for name in sorted(files):
            path = Path(root, name)
            if name.startswith(".") or path.is_symlink() or (Path(root) == folder and name == SKILL_FILE):
                continue
            found.append(path.relative_to(folder).as_posix())
            if len(found) >= MAX_FILES:
                return found
    return found


def _kind(rel: str) -> str:
    if PurePosixPath(rel).suffix.lower() in SCRIPTS:
        return "script"
    return "reference" if rel.startswith("references/") or rel.endswith(".md") else "file"


def _first_line(lines: list[str], test) -> int:
    return next((number for number, text in enumerate(lines, 1) if test(text)), 0)


def _mentions(text: str, rel: str) -> bool:
    """``rel`` in ``text`` as a whole path (not inside a longer name)."""
    start = text.find(rel)
    while start >= 0:
        end = start + len(rel)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-/"):
            return True
        start = text.find(rel, start + 1)
    return False


def _same_tool(called: str, named: str) -> bool:
    return called == named or called.endswith(f"__{named}")
