"""What a Claude Code log is: the format's name, and how one of its records is told
from another log's, a session's or what ``claude -p --output-format stream-json``
prints (``claude_stream`` tells stream-json's). ``claude_code`` reads a session; its
subagents' work (``claude_subagents``) names the format too."""

from __future__ import annotations

from typing import Any

from referee.engine.run.importers import claude_stream

FORMAT = "claude-code"


def looks_like(value: Any) -> bool:
    """True for a JSON record of a Claude Code session, or of what ``claude -p
    --output-format stream-json`` prints (which names its session ``session_id``)."""
    return isinstance(value, dict) and (
        ("sessionId" in value and "type" in value)
        or (value.get("type") in ("user", "assistant") and isinstance(value.get("message"), dict)
            and "uuid" in value)
        or claude_stream.is_stream_record(value))


def opens_session(value: Any) -> bool:
    """True for a record a session may open with that names no session: a summary,
    a file-history snapshot (what a resumed session starts with)."""
    return isinstance(value, dict) and value.get("type") in ("summary", "file-history-snapshot")
