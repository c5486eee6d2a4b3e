"""A Claude Code session resumed from another keeps, on the records it copied from
it, that session's id, and gives its own id to the records of its own work and to
the subagents that work started (``agent-*.jsonl``). Those subagent files are the
session's: matched by any session id its records give, they are nested under their
``Task`` calls, never left out as transcripts not found. A subagent file of a
session the records do not give (an id only named inside a tool's input) is not."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: count(calls to "Glob") == 1\n'
OLD, NEW = "sess-old", "sess-new"


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _session(task_input: dict) -> list[dict]:
    return [
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": OLD,
         "message": {"role": "user", "content": "Deploy it"}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": OLD,
         "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "On it."}]}},
        {"type": "user", "uuid": "u2", "parentUuid": "a1", "sessionId": NEW,
         "message": {"role": "user", "content": "go on"}},
        {"type": "assistant", "uuid": "a2", "parentUuid": "u2", "sessionId": NEW,
         "message": {"id": "m2", "role": "assistant",
                     "content": [{"type": "tool_use", "id": "t1", "name": "Task", "input": task_input}]}},
        {"type": "user", "uuid": "u3", "parentUuid": "a2", "sessionId": NEW,
         "toolUseResult": {"agentId": "ag1", "totalToolUseCount": 1, "status": "completed"},
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "found"}]}},
        {"type": "assistant", "uuid": "a3", "parentUuid": "u3", "sessionId": NEW,
         "message": {"id": "m3", "role": "assistant", "stop_reason": "end_turn",
                     "content": [{"type": "text", "text": "All deployed."}]}}]


def _agent(session: str) -> list[dict]:
    common = {"isSidechain": True, "agentId": "ag1", "sessionId": session}
    return [{"type": "user", "uuid": "s1", "parentUuid": None, **common,
             "message": {"role": "user", "content": "look around"}},
            {"type": "assistant", "uuid": "s2", "parentUuid": "s1", **common,
             "message": {"id": "sm1", "role": "assistant",
                         "content": [{"type": "tool_use", "id": "st1", "name": "Glob", "input": {"pattern": "*"}}]}},
            {"type": "user", "uuid": "s3", "parentUuid": "s2", **common,
             "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "st1", "content": "a"}]}},
            {"type": "assistant", "uuid": "s4", "parentUuid": "s3", **common,
             "message": {"id": "sm2", "role": "assistant", "content": [{"type": "text", "text": "found"}]}}]


def _graded(source: Path) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_subagent_of_the_resumed_work_is_nested_under_its_task(tmp_path):
    source = _write(tmp_path / "sess.jsonl", _session({"prompt": "look around", "subagent_type": "Explore"}))
    _write(tmp_path / "agent-ag1.jsonl", _agent(NEW))
    outcomes, problems = _graded(source)
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems)


def test_a_session_id_named_only_in_a_tool_input_gives_no_subagent(tmp_path):
    task = {"prompt": "look around", "subagent_type": "Explore", "context": {"sessionId": "sess-other"}}
    source = _write(tmp_path / "sess.jsonl", _session(task))
    _write(tmp_path / "agent-ag1.jsonl", _agent("sess-other"))
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "error"]
    assert any("has no transcript here" in p for p in problems)
