"""claude-code-action's execution file whose first record (the ``system`` ``init``
record, listing every tool and MCP server) is larger than the head format detection
reads: it is still a Claude Code log, told by that record's own members (its
``type`` and ``session_id``, or ``subtype`` ``init``), whatever follows them. So
``import auto`` and ``grade SOURCE`` read it, and a copy left in a run's
``outputs/`` is said to be an unimported log, never passed over as nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import HEAD_BYTES, claude_format, import_sources
from referee.engine.run.importers.source_format import detect

SESSION = "s-9"
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: not response contains "rm"\n'


def _init(late: bool) -> dict:
    tools = [f"mcp__server{i}__a_tool_with_a_rather_long_name" for i in range(3000)]
    servers = [{"name": f"server{i}", "status": "connected"} for i in range(1500)]
    init = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": tools,
            "mcp_servers": servers}
    if late:  # session_id written after the lists, past the head: type and subtype tell it
        init["session_id"] = init.pop("session_id")
    return init


def _messages(late: bool) -> list[dict]:
    return [_init(late),
            {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
             "message": {"id": "m0", "role": "assistant",
                         "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "rm -rf /"}}]}},
            {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
             "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
            {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
             "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "I ran rm -rf /"}]}},
            {"type": "result", "subtype": "success", "is_error": False, "result": "I ran rm -rf /",
             "session_id": SESSION}]


def _write(path: Path, indent, late: bool) -> Path:
    path.write_text(json.dumps(_messages(late), indent=indent), encoding="utf-8")
    assert len(json.dumps(_messages(late)[0])) > HEAD_BYTES
    return path


@pytest.mark.parametrize("late", [False, True])
@pytest.mark.parametrize("indent", [None, 2])
def test_import_auto_reads_it(tmp_path: Path, indent, late):
    source = _write(tmp_path / "claude-execution-output.json", indent, late)
    result = import_sources("auto", [source], tmp_path / "out")
    assert result.errors == ()
    (run,) = result.written
    assert (run.format, run.calls, run.responded) == (claude_format.FORMAT, 1, True)


@pytest.mark.parametrize("indent", [None, 2])
def test_graded_where_it_lies(tmp_path: Path, indent):
    source = _write(tmp_path / "claude-execution-output.json", indent, False)
    (result,) = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "fail"]


@pytest.mark.parametrize("indent", [None, 2])
def test_left_in_outputs_it_never_lets_a_check_pass(tmp_path: Path, indent):
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    _write(outputs / "claude-execution-output.json", indent, False)
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert "claude-execution-output.json looks like a claude-code log" in result.expectations[1]["evidence"]


def test_an_array_of_other_records_is_not_taken_for_one(tmp_path: Path):
    other = [{"type": "system", "session": SESSION, "tools": ["x" * 100] * 1000}, {"type": "user"}]
    source = tmp_path / "other.json"
    source.write_text(json.dumps(other), encoding="utf-8")
    assert detect(source) is None
