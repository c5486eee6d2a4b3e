"""A Claude Code log written as UTF-16 with its byte order mark (what Windows
PowerShell's ``>`` writes of ``claude -p --output-format stream-json``) is the text
it holds, as a run's evidence in UTF-16 is: ``import auto`` and ``grade SOURCE``
read it, and one left in a run's ``outputs/`` is said to be an unimported log, so a
check over the run's calls or response is an ERROR, never a pass on nothing. Bytes
behind a UTF-16 mark that are not UTF-16 are read as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import claude_code, import_sources

SESSION = "s-8"
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: not response contains "rm"\n'
RECORDS = [
    {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m0", "role": "assistant",
                 "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "rm -rf build"}}]}},
    {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "I ran rm -rf build é"}]}},
    {"type": "result", "subtype": "success", "is_error": False, "result": "I ran rm -rf build é",
     "session_id": SESSION}]


def _utf16(encoding: str) -> bytes:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\r\n" for r in RECORDS)
    return ("\ufeff" + text).encode(encoding)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_import_auto_reads_it(tmp_path: Path, encoding):
    source = tmp_path / "claude.jsonl"
    source.write_bytes(_utf16(encoding))
    result = import_sources("auto", [source], tmp_path / "out")
    assert result.errors == ()
    (run,) = result.written
    assert (run.format, run.calls, run.responded) == (claude_code.FORMAT, 1, True)
    assert "I ran rm -rf build é" in (tmp_path / "out" / run.name / "outputs" / "response.md").read_text("utf-8")


def test_graded_where_it_lies(tmp_path: Path):
    source = tmp_path / "claude.jsonl"
    source.write_bytes(_utf16("utf-16-le"))
    (result,) = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "fail"]


def test_left_in_outputs_it_never_lets_a_check_pass(tmp_path: Path):
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "claude.jsonl").write_bytes(_utf16("utf-16-le"))
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert "claude.jsonl looks like a claude-code log" in result.expectations[1]["evidence"]


def test_bytes_behind_a_utf16_mark_that_are_not_utf16_are_no_log(tmp_path: Path):
    source = tmp_path / "claude.jsonl"
    source.write_bytes(b"\xff\xfe" + json.dumps(RECORDS[0]).encode() + b"\n")
    result = import_sources("auto", [source], tmp_path / "out")
    assert result.written == () and len(result.errors) == 1
