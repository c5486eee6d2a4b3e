"""Token usage and duration of a Claude Code session, for ``timing.json``.

Usage is summed over messages, each message once however many lines it spans
(its usage is repeated on each). Input, output and the two kinds of cache tokens
are kept apart, and ``total_tokens`` is all four: every token the model read or
wrote (``total_tokens_counts`` names them, so no reader has to guess; a session's
cache reads are often most of it).

Claude Code writes a message's line while it streams: a line with ``stop_reason``
null carries the usage counted so far, its output tokens far too low. A message
none of whose lines has a stop reason is a snapshot; the run says how many there
are (``usage-snapshot``) and ``timing.json`` counts them (``usage_snapshots``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from referee.engine.run.model import Problem

KEYS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def note_stop(state: dict, message: dict) -> None:
    """Remember on a message's ``state`` whether one of its lines has a stop reason,
    and whether one says it has none yet (a line written mid-stream)."""
    if message.get("stop_reason") is not None:
        state["stopped"] = True
    elif "stop_reason" in message:
        state["streaming"] = True


def count(readers: list[Any]) -> tuple[dict[str, int], int]:
    """The token totals over every message of ``readers`` (empty when none has usage),
    and how many of those messages are mid-stream snapshots."""
    totals = dict.fromkeys(KEYS, 0)
    seen, snapshots = False, 0
    for reader in readers:
        for state in reader.messages.values():
            usage = state["usage"]
            if not isinstance(usage, dict):
                continue
            snapshots += bool(state.get("streaming") and not state.get("stopped"))
            for key in KEYS:
                value = usage.get(key)
                if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                    totals[key] += value
                    seen = True
    return (totals, snapshots) if seen else ({}, 0)


def snapshot_problem(source: str, snapshots: int) -> Problem:
    many = snapshots != 1
    message = (f"{snapshots} assistant message{'s' if many else ''} {'carry' if many else 'carries'} token usage "
               "written while streaming (stop_reason null): output tokens are counted low, so the totals are too")
    return Problem("usage-snapshot", source, message)


def timing(totals: dict[str, int], snapshots: int, times: list[str]) -> dict | None:
    """``timing.json``: the token totals, and the time between the first and last timestamps."""
    found: dict[str, Any] = {}
    if totals:
        found.update(totals)
        found["total_tokens"] = sum(totals[key] for key in KEYS)
        found["total_tokens_counts"] = list(KEYS)
        if snapshots:
            found["usage_snapshots"] = snapshots
    found.update(_duration(times))
    return found or None


def _duration(times: list[str]) -> dict[str, Any]:
    parsed = []
    for text in times:
        try:
            parsed.append(datetime.fromisoformat(text.replace("Z", "+00:00")))
        except ValueError:
            continue
    try:
        if len(parsed) >= 2:
            span = max(parsed) - min(parsed)
            return {"duration_ms": int(span.total_seconds() * 1000),
                    "total_duration_seconds": round(span.total_seconds(), 3)}
    except TypeError:  # naive and aware timestamps mixed: no duration rather than a guess
        pass
    return {}
