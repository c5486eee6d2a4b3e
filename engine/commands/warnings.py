"""Warnings on standard error, the same way for every command: inert, and bounded.

Messages carry names from runs (paths, tool names), so control characters are
escaped before they reach a terminal, and each message stays on its one line: a line
break in a name is written as ``\\n``, since the rest of the name on a line of its
own would read as referee's, or as a workflow command in a CI log (the GitHub
Actions runner reads one at the start of any line). A long list is cut, saying how
many more.
"""

from __future__ import annotations

import sys

from referee.engine.report.inert import inert

MAX_WARNINGS = 20


def _one_line(message: str) -> str:
    return inert(message).replace("\n", "\\n")


def warn(message: str) -> None:
    print(f"referee: warning: {_one_line(message)}", file=sys.stderr)


def warn_all(messages: list[str]) -> None:
    """The first ``MAX_WARNINGS`` messages as they are (each already says what it is)."""
    for message in messages[:MAX_WARNINGS]:
        print(f"referee: {_one_line(message)}", file=sys.stderr)
    if len(messages) > MAX_WARNINGS:
        print(f"referee: ... and {len(messages) - MAX_WARNINGS} more warnings", file=sys.stderr)
