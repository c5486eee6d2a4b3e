"""skill-creator executor logs: the agent's own account of a run, read as it lies.

An executor log is Markdown the agent wrote: ``# Eval Execution Transcript``, then
the sections the log format defines (``## Eval Prompt``, ``## Skill``, ``## Input
Files``, ``## Execution`` with its ``### Step N`` entries and ``**Tool**:`` lines,
``## Output Files``, ``## Final Result``, ``## Issues``). Its tool lines are claims,
never a record of calls (``engine.run.workspace.Run.transcript``), and its answer is
the ``## Final Result`` section, whole: the answer's own headings, ``---`` rules,
tables and lists belong to it, up to the next heading that names a section of the
log format. A heading inside a code fence is text.

Both ways of reading a log use this module, so they read the same answer: a run
graded as it lies (``Run.response``) and ``referee import skill-creator-log``.
"""

from __future__ import annotations

import re

from referee.dsl.frozen import frozen
from referee.engine.text import file_lines

# The sections the executor log format defines, by their titles (casefolded).
SECTIONS = frozenset({"eval prompt", "skill", "input files", "execution", "steps", "output files",
                      "final result", "issues"})
# A heading's title is what follows its hashes, trailing blanks and "#" left out
# (``heading``): taken whole and stripped, a line is read once; a lazy title before
# "[ \t#]*$" tried every length, a time growing with the square of a line of "# # # ...".
_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.*)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_FINAL = re.compile(r"(?:final[ _-]*(?:result|answer|response|output)|result|response|output)s?[ \t]*:?", re.I)
_STEP = re.compile(r"#{2,4}[ \t]+step[ \t]*[0-9]", re.I | re.M)
_TOOL_LINE = re.compile(r"^\*\*(?:tool|tools|action|result)s?\*\*[ \t]*:", re.I | re.M)
_FINAL_HEADING = re.compile(r"^#{1,3}[ \t]+final", re.I | re.M)


@frozen
class Answer:
    """The final result section of a log: its heading (as written, on line
    ``line``), and its body ``text`` starting on line ``first`` (1-based)."""

    heading: str
    line: int
    text: str
    first: int


def log_shaped(text: str) -> bool:
    """``### Step N`` sections and ``**Tool**:`` lines (or a final result section), or
    a final result section beside another section the log format defines: the shape of
    an executor log. The caller knows the text holds no dual-section block."""
    if _STEP.search(text) and (_TOOL_LINE.search(text) or _FINAL_HEADING.search(text)):
        return True
    return _log_sections(text)


def _log_sections(text: str) -> bool:
    """A ``Final ...`` section and another section of the log format (``Eval Prompt``,
    ``Execution``, ``Issues`` ...), outside code fences: the log of a run that took no
    step (the agent answered without a tool) has no ``### Step`` to show its shape."""
    if not _FINAL_HEADING.search(text):
        return False
    titles = [title for _, _, title in headings(file_lines(text.removeprefix("\ufeff")))]
    return (any(title.strip().casefold().startswith("final") and is_final(title) for title in titles)
            and any(_defined(title) and not is_final(title) for title in titles))


def headings(lines: list[str] | tuple[str, ...]) -> list[tuple[int, int, str]]:
    """``(line, level, title)`` of every heading of level 1 to 3 outside code fences."""
    found: list[tuple[int, int, str]] = []
    fence: str | None = None
    for number, line in enumerate(lines, 1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        read = heading(line)
        if read is not None and len(read[0]) <= 3:
            found.append((number, len(read[0]), read[1]))
    return found


def heading(line: str) -> tuple[str, str] | None:
    """A heading line's hashes and title (its trailing blanks and "#" left out), or None."""
    found = _HEADING.match(line)
    return None if found is None else (found.group(1), found.group(2).rstrip(" \t#"))


def is_final(title: str) -> bool:
    """A title that opens the answer: ``Final Result`` (or ``Final Answer``, ``Result``,
    ``Response``, ``Output``...)."""
    return _FINAL.fullmatch(title.strip()) is not None


def final_result(text: str) -> Answer | None:
    """The log's answer, whole: its last ``Final ...`` section (a draft may come
    before it; the last ``Result``, ``Response`` or ``Output`` one when it has none);
    None when there is none or it is empty. Line ends may be CRLF; a byte order mark
    is ignored."""
    lines = file_lines(text.removeprefix("\ufeff"))
    found = headings(lines)
    opening = [k for k, (_, _, title) in enumerate(found) if is_final(title)]
    if not opening:
        return None
    # the last "## Final Result" when the log has one; else the last heading that may open it
    finals = [k for k in opening if found[k][2].strip().casefold().startswith("final")]
    k = (finals or opening)[-1]
    line, level, _ = found[k]
    end = next((at for at, depth, name in found[k + 1:] if depth <= level and _defined(name)), len(lines) + 1)
    body = lines[line:end - 1]
    skip = next((i for i, value in enumerate(body) if value.strip()), len(body))
    answer = "\n".join(body[skip:]).rstrip()
    return Answer(lines[line - 1].strip(), line, answer, line + 1 + skip) if answer else None


def _defined(title: str) -> bool:
    return title.strip().rstrip(":").strip().casefold() in SECTIONS
