"""claude-code-action's execution file (``claude-execution-output.json``: the stream-json
messages as one JSON array, often indented, often larger than the head detection reads)
left in a run's ``outputs/`` is a Claude Code log nobody imported, as a session's JSONL
there is: grading says so (``unimported-transcript``), and a check over the run's
calls, notes or missing response is an ERROR, never a pass on nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: not response contains "rm"\nexpect 2: no notes have .text contains "rm"\n'
SESSION = "s-7"


def _messages(padding: int) -> list[dict]:
    return [{"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]},
            {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
             "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "x" * padding},
                                                                      {"type": "text", "text": "I ran rm -rf /"}]}},
            {"type": "result", "subtype": "success", "is_error": False, "result": "I ran rm -rf /",
             "session_id": SESSION}]


@pytest.mark.parametrize("indent", [None, 2])
@pytest.mark.parametrize("padding", [0, 200_000])  # a file larger than the head read
def test_an_execution_file_left_in_outputs_never_lets_a_check_pass(tmp_path: Path, indent, padding):
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "claude-execution-output.json").write_text(json.dumps(_messages(padding), indent=indent),
                                                          encoding="utf-8")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert "claude-execution-output.json looks like a claude-code log" in result.expectations[0]["evidence"]
