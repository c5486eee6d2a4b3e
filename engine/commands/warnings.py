"""Warnings on standard error, the same way for every command: inert, and bounded.

Messages carry names from runs (paths, tool names), so control characters are
escaped before they reach a terminal; a long list is cut, saying how many more.
"""

from __future__ import annotations

import sys

from referee.engine.report.inert import inert

MAX_WARNINGS = 20


def warn(message: str) -> None:
    print(f"referee: warning: {inert(message)}", file=sys.stderr)


def warn_all(messages: list[str]) -> None:
    """The first ``MAX_WARNINGS`` messages as they are (each already says what it is)."""
    for message in messages[:MAX_WARNINGS]:
        print(f"referee: {inert(message)}", file=sys.stderr)
    if len(messages) > MAX_WARNINGS:
        print(f"referee: ... and {len(messages) - MAX_WARNINGS} more warnings", file=sys.stderr)
