"""A Claude Code session of one call, for the tests of how a call's answer is read.

The user asks (``prompt``); the agent calls ``tool`` with ``args``; the answer comes
back as a tool_result of ``content`` (with ``is_error``, and ``toolUseResult`` when
``structured`` is given); ``later`` records may follow; the agent ends its turn
saying ``reply``. Every record names session S1, as a session log's do."""

from __future__ import annotations

import json
from pathlib import Path


def record(kind: str, uuid: str, message: dict, **extra: object) -> dict:
    """One record of the session log: a ``user`` or ``assistant`` message."""
    return {"type": kind, "sessionId": "S1", "uuid": uuid, "message": message, **extra}


def call(uuid: str, message_id: str, call_id: str, tool: str, args: dict) -> dict:
    """The agent's turn that calls ``tool``."""
    return record("assistant", uuid, {"id": message_id, "role": "assistant", "stop_reason": "tool_use",
                                      "content": [{"type": "tool_use", "id": call_id, "name": tool, "input": args}]})


def answer(uuid: str, call_id: str, content: object, is_error: bool | None = None,
           structured: object = None) -> dict:
    """The tool's answer to the call ``call_id`` (``is_error`` left out when None)."""
    part = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    if is_error is not None:
        part["is_error"] = is_error
    extra = {} if structured is None else {"toolUseResult": structured}
    return record("user", uuid, {"role": "user", "content": [part]}, **extra)


def one_call_session(tmp_path: Path, tool: str, args: dict, content: object, *, is_error: bool | None = False,
                     structured: object = None, later: tuple[dict, ...] = (), prompt: str = "run the tests",
                     reply: str = "The tests ran.") -> Path:
    """The session written to ``tmp_path/s.jsonl``; its path."""
    records = [record("user", "u0", {"role": "user", "content": prompt}),
               call("a0", "m0", "t1", tool, args),
               answer("r0", "t1", content, is_error, structured),
               *later,
               record("assistant", "a9", {"id": "m9", "role": "assistant", "stop_reason": "end_turn",
                                          "content": [{"type": "text", "text": reply}]})]
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return session
