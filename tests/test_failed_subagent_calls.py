"""A Claude Code Task call that failed may have failed after its subagent worked: the
user interrupted it (``[Request interrupted by user for tool use]``, is_error true),
or the subagent broke off. With no transcript of that subagent, the run's calls are
unknown and ``no calls to "Bash"`` is an ERROR, as for a Task that succeeded. A Task
refused before it ran (its answer a ``<tool_use_error>``) started no subagent, and
is no alarm; a subagent whose transcript lies beside the session is read."""

from __future__ import annotations

import json
from pathlib import Path

import referee

_HEAD = {"sessionId": "S1", "cwd": "/w", "version": "2.0.61", "userType": "external"}
RULES = 'eval "s"\nexpect 1: no calls to "Bash"\nexpect 2: count(calls to "Task") == 1\n'


def _record(kind: str, uuid: str, message: dict, **extra) -> str:
    return json.dumps({**_HEAD, "isSidechain": False, "type": kind, "uuid": uuid, "message": message, **extra})


def _session(tmp_path: Path, answer: str) -> Path:
    lines = [
        _record("user", "u0", {"role": "user", "content": "Explore the repository."}),
        _record("assistant", "a1", {"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t_task", "name": "Task",
             "input": {"description": "Explore", "prompt": "List the files.", "subagent_type": "Explore"}}]}),
        _record("user", "r1", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t_task", "content": answer, "is_error": True}]},
            toolUseResult=f"Error: {answer}"),
        _record("assistant", "a2", {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "Stopped."}]}),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _outcomes(source: Path) -> list[str]:
    (result,) = referee.grade(RULES, source)
    return [item["outcome"] for item in result.expectations]


def test_an_interrupted_task_with_no_transcript_leaves_the_calls_unknown(tmp_path: Path):
    source = _session(tmp_path, "[Request interrupted by user for tool use]")
    assert _outcomes(source) == ["error", "error"]


def test_a_task_refused_before_it_ran_is_no_alarm(tmp_path: Path):
    source = _session(tmp_path, "<tool_use_error>Agent type 'Explorer' not found.</tool_use_error>")
    assert _outcomes(source) == ["pass", "pass"]


def test_the_transcript_of_an_interrupted_subagent_is_read(tmp_path: Path):
    source = _session(tmp_path, "[Request interrupted by user for tool use]")
    side = {**_HEAD, "isSidechain": True, "agentId": "a1b2c3d"}
    lines = [
        json.dumps({**side, "type": "user", "uuid": "s0", "message": {"role": "user", "content": "List the files."}}),
        json.dumps({**side, "type": "assistant", "uuid": "s1", "message": {"id": "ms1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t_ls", "name": "Bash", "input": {"command": "ls"}}]}}),
    ]
    (tmp_path / "agent-a1b2c3d.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _outcomes(source) == ["fail", "pass"]
