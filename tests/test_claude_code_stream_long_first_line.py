"""What ``claude -p --output-format stream-json`` prints, one record a line, whose
first line (the ``system`` ``init`` record, listing every tool and MCP server) is
longer than the head format detection reads: still a Claude Code log, told by the
members of that record the head holds whole. So ``import auto`` and ``grade SOURCE``
read it, and one left in a run's ``outputs/`` is said to be an unimported log."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import HEAD_BYTES, claude_code, detect, import_sources

SESSION = "s-10"
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: not response contains "rm"\n'
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION,
        "tools": [f"mcp__server{i}__a_tool_with_a_rather_long_name" for i in range(3000)]}
RECORDS = [
    INIT,
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m0", "role": "assistant",
                 "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "rm -rf build"}}]}},
    {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "I ran rm -rf build"}]}},
    {"type": "result", "subtype": "success", "is_error": False, "result": "I ran rm -rf build",
     "session_id": SESSION}]


def _stream(path: Path) -> Path:
    assert len(json.dumps(INIT)) > HEAD_BYTES
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return path


def test_import_auto_reads_it(tmp_path: Path):
    result = import_sources("auto", [_stream(tmp_path / "claude.jsonl")], tmp_path / "out")
    assert result.errors == ()
    (run,) = result.written
    assert (run.format, run.calls, run.responded) == (claude_code.FORMAT, 1, True)


def test_graded_where_it_lies(tmp_path: Path):
    (result,) = referee.grade(RULES, _stream(tmp_path / "claude.jsonl"), as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "fail"]


def test_left_in_outputs_it_never_lets_a_check_pass(tmp_path: Path):
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    _stream(outputs / "claude.jsonl")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert "claude.jsonl looks like a claude-code log" in result.expectations[1]["evidence"]


def test_a_long_first_line_of_another_kind_is_no_log(tmp_path: Path):
    source = tmp_path / "other.jsonl"
    source.write_text(json.dumps({"type": "system", "session": SESSION, "tools": ["x" * 100] * 1000}) + "\n",
                      encoding="utf-8")
    assert detect(source) is None
