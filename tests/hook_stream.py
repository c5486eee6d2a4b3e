"""A Claude Code stream (stream-json) around one hook_response record, graded by rules
that ask whether the agent was told "deploy", for the tests of what a hook gave it."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no harness where .text contains "deploy"\nexpect 2: response contains "Fixed"\n'
HEAD = [{"type": "system", "subtype": "init", "cwd": "/w", "session_id": "s", "tools": [], "model": "m"},
        {"type": "user", "message": {"role": "user", "content": "fix it"}, "session_id": "s"}]
TAIL = [{"type": "assistant", "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                                          "content": [{"type": "text", "text": "Fixed."}]}, "session_id": "s"},
        {"type": "result", "subtype": "success", "is_error": False, "result": "Fixed.", "session_id": "s"}]


def write_stream(tmp_path: Path, response: dict) -> Path:
    """The stream with ``response`` between the user's turn and the agent's reply."""
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in [*HEAD, response, *TAIL]), encoding="utf-8")
    return source


def graded(tmp_path: Path, response: dict) -> tuple[list[str], list[str]]:
    """The outcomes of RULES on that stream, and its problems."""
    grading = referee.grade(RULES, write_stream(tmp_path, response), as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]
