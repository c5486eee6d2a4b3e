"""A line of a subagent's own file (``agent-*.jsonl``) that is no record, while the
subagent's calls are open, may hold their answer, as a line of the session may: a
subagent's call never answered after it has an answer whose status and return are
unknown. Before, a subagent whose failed Bash answer's line was written as a program's
output read that call as never answered, and ``no calls with status error`` passed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls with status error\nexpect 2: count(calls to "Bash") == 1\n'


def _record(kind: str, uuid: str, content: object, **extra: object) -> dict:
    return {"type": kind, "sessionId": "s1", "uuid": uuid, "cwd": "/tmp/p",
            "message": {"id": f"m-{uuid}", "role": kind, "content": content}, **extra}


def _session(folder: Path, answer_line: str | None, before_answer: str | None = None) -> Path:
    """A session whose Task call's subagent ran one Bash call that failed; its answer's
    line written as ``answer_line`` when given, ``before_answer`` a line put before it."""
    told = {"status": "completed", "prompt": "Run the tests", "agentId": "ab12345",
            "content": [{"type": "text", "text": "Tests failed."}], "totalToolUseCount": 1}
    main = [
        _record("user", "u1", "Check the tests"),
        _record("assistant", "a1", [{"type": "tool_use", "id": "t1", "name": "Task",
                                     "input": {"prompt": "Run the tests", "subagent_type": "general-purpose"}}]),
        _record("user", "u2", [{"type": "tool_result", "tool_use_id": "t1",
                                "content": [{"type": "text", "text": "Tests failed."}]}], toolUseResult=told),
        _record("assistant", "a2", [{"type": "text", "text": "The tests fail."}]),
    ]
    answer = _record("user", "x1", [{"type": "tool_result", "tool_use_id": "b1", "content": "1 failed",
                                     "is_error": True}], isSidechain=True, agentId="ab12345")
    agent = [json.dumps(_record("user", "x0", "Run the tests", isSidechain=True, agentId="ab12345")),
             json.dumps(_record("assistant", "xa", [{"type": "tool_use", "id": "b1", "name": "Bash",
                                                     "input": {"command": "pytest"}}], isSidechain=True,
                                agentId="ab12345")),
             *([before_answer] if before_answer is not None else []),
             answer_line if answer_line is not None else json.dumps(answer),
             json.dumps(_record("assistant", "xb", [{"type": "text", "text": "Tests failed."}], isSidechain=True,
                                agentId="ab12345"))]
    folder.mkdir(parents=True, exist_ok=True)
    session = folder / "s1.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in main), encoding="utf-8")
    (folder / "s1" / "subagents").mkdir(parents=True)
    (folder / "s1" / "subagents" / "agent-ab12345.jsonl").write_text("\n".join(agent) + "\n", encoding="utf-8")
    return session


def _graded(session: Path) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, session, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


@pytest.mark.parametrize("written", ["FAILED tests/test_a.py::test_x", "null", "7"])
def test_a_subagent_line_not_read_leaves_its_open_call_unknown(tmp_path: Path, written: str):
    assert _graded(_session(tmp_path / "whole", None))[0] == ["fail", "pass"]
    outcomes, problems = _graded(_session(tmp_path / "cut", written))
    assert outcomes == ["error", "pass"]
    assert any("agent-ab12345.jsonl:3: warning[status-unknown]" in problem for problem in problems)


def test_a_subagent_line_not_read_before_the_answer_changes_nothing(tmp_path: Path):
    assert _graded(_session(tmp_path, None, before_answer="npm WARN deprecated"))[0] == ["fail", "pass"]
