"""What ``claude -p --output-format stream-json`` prints may leave out the messages of a
subagent a ``Task`` call started; Claude Code keeps them in the session's
``agent-*.jsonl`` file, as for a session log. Such a file given or lying beside the
stream, naming the stream's ``session_id`` as its ``sessionId``, is that subagent's
work, nested under the Task call whose answer names its ``agentId``: a check over the
run's calls reads it. A file of another session is not taken; a file whose subagent's
messages the stream holds too adds nothing, unless it holds calls the stream does not."""

from __future__ import annotations

import json
from pathlib import Path

import referee

SESSION = "s-15"
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: exactly 1 calls to "Bash"\n'
STREAM = [
    {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Task", "Bash"]},
    {"type": "user", "message": {"role": "user", "content": "Clean up"}, "parent_tool_use_id": None,
     "session_id": SESSION},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m1", "role": "assistant", "content": [
         {"type": "tool_use", "id": "t1", "name": "Task",
          "input": {"description": "clean", "prompt": "Remove the build folder", "subagent_type": "general-purpose"}}]}},
    {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Done"}]},
     "tool_use_result": {"status": "completed", "agentId": "ab12", "totalToolUseCount": 1, "content": []}},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "Cleaned."}]}},
    {"type": "result", "subtype": "success", "is_error": False, "result": "Cleaned.", "session_id": SESSION}]


def _agent(session: str, calls: list[tuple[str, str]]) -> list[dict]:
    """A subagent's file: its prompt, then a Bash call (id, command) and its answer each."""
    base = {"isSidechain": True, "agentId": "ab12", "sessionId": session}
    records = [{**base, "type": "user", "uuid": "x0", "parentUuid": None,
                "message": {"role": "user", "content": "Remove the build folder"}}]
    for k, (call_id, command) in enumerate(calls):
        records.append({**base, "type": "assistant", "uuid": f"c{k}", "parentUuid": records[-1]["uuid"],
                        "message": {"id": f"sm{k}", "role": "assistant", "content": [
                            {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}]}})
        records.append({**base, "type": "user", "uuid": f"r{k}", "parentUuid": f"c{k}", "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": ""}]}})
    return records


def _inline(records: list[dict]) -> list[dict]:
    """The subagent's messages as the stream prints them."""
    return [{"type": r["type"], "message": r["message"], "parent_tool_use_id": "t1", "session_id": SESSION}
            for r in records]


def _graded(tmp_path: Path, stream: list[dict], agent: list[dict]) -> tuple[list[str], list[str]]:
    (tmp_path / "stream.jsonl").write_text("".join(json.dumps(r) + "\n" for r in stream), encoding="utf-8")
    (tmp_path / "agent-ab12.jsonl").write_text("".join(json.dumps(r) + "\n" for r in agent), encoding="utf-8")
    grading = referee.grade(RULES, tmp_path / "stream.jsonl", as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_subagent_file_of_the_stream_s_session_is_read(tmp_path):
    outcomes, problems = _graded(tmp_path, STREAM, _agent(SESSION, [("st1", "rm -rf build")]))
    assert outcomes == ["fail", "pass"]
    assert not any("calls-may-be-missing" in p or "unattached" in p for p in problems)


def test_a_subagent_file_of_another_session_is_not_taken(tmp_path):
    outcomes, problems = _graded(tmp_path, STREAM, _agent("another", [("st1", "rm -rf build")]))
    assert outcomes == ["error", "error"]
    assert any("calls-may-be-missing" in p and "stream.jsonl:3" in p for p in problems)


def test_a_subagent_the_stream_holds_and_its_file_are_read_once(tmp_path):
    agent = _agent(SESSION, [("st1", "rm -rf build")])
    outcomes, problems = _graded(tmp_path, STREAM[:3] + _inline(agent) + STREAM[3:], agent)
    assert outcomes == ["fail", "pass"]
    assert not any("calls-may-be-missing" in p or "unattached" in p for p in problems)


def test_a_file_holding_calls_the_stream_does_not_leaves_the_calls_unknown(tmp_path):
    agent = _agent(SESSION, [("st1", "ls"), ("st2", "rm -rf build")])
    outcomes, problems = _graded(tmp_path, STREAM[:3] + _inline(agent[:3]) + STREAM[3:], agent)
    assert outcomes == ["fail", "error"]  # the 'ls' read was run: a Bash call, but how many is unknown
    assert any("calls-may-be-missing" in p and "agent-ab12.jsonl" in p for p in problems)
