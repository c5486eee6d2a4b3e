"""A stream-json run (what ``claude -p --output-format stream-json`` prints) that ran
``rm -rf build`` and says so, and the three ways it is met: imported, graded where it
lies, and left in a run's ``outputs/``. Tests of how such a stream may be saved (after
other lines, with a long first line, as UTF-16) write it their way and check these."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import referee
from referee.engine.run.importers import claude_format, import_sources

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: not response contains "rm"\n'


def records(session: str, reply: str = "I ran rm -rf build", **init: object) -> list[dict]:
    """The run's records: an init record (with ``init``'s members), one Bash call, its
    result, the reply and a successful result record."""
    return [
        {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": session, "tools": ["Bash"], **init},
        {"type": "assistant", "parent_tool_use_id": None, "session_id": session,
         "message": {"id": "m0", "role": "assistant",
                     "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                  "input": {"command": "rm -rf build"}}]}},
        {"type": "user", "parent_tool_use_id": None, "session_id": session,
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
        {"type": "assistant", "parent_tool_use_id": None, "session_id": session,
         "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": reply}]}},
        {"type": "result", "subtype": "success", "is_error": False, "result": reply, "session_id": session}]


def imported(write: Callable[[Path], Path], tmp_path: Path):
    """The run ``write`` saved, imported by ``import auto``: it is read as Claude Code."""
    result = import_sources("auto", [write(tmp_path / "claude.jsonl")], tmp_path / "out")
    assert result.errors == ()
    (run,) = result.written
    assert (run.format, run.calls, run.responded) == (claude_format.FORMAT, 1, True)
    return run


def graded_where_it_lies(write: Callable[[Path], Path], tmp_path: Path) -> None:
    """Graded as a source, both checks fail: the call and the words are read."""
    (result,) = referee.grade(RULES, write(tmp_path / "claude.jsonl"), as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "fail"]


def left_in_outputs(write: Callable[[Path], Path], tmp_path: Path) -> None:
    """Left in a run's outputs/, it is said to be an unimported log, and both checks are
    ERRORs, never a pass on nothing."""
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    write(outputs / "claude.jsonl")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert "claude.jsonl looks like a claude-code log" in result.expectations[1]["evidence"]
