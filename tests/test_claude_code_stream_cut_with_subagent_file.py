"""A stream-json run cut short (no ``result`` record) is said to be so at the stream's
last line, the one it ends on: never at a line of a subagent's ``agent-*.jsonl`` file
lying beside it, which the stream's own lines do not count."""

from __future__ import annotations

import json
from pathlib import Path

import referee

SESSION = "s-16"
STREAM = [
    {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Task"]},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m1", "role": "assistant", "content": [
         {"type": "tool_use", "id": "t1", "name": "Task",
          "input": {"description": "clean", "prompt": "Remove the build folder", "subagent_type": "general-purpose"}}]}},
    {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Done"}]},
     "tool_use_result": {"status": "completed", "agentId": "ab12", "totalToolUseCount": 0, "content": []}},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "Cleaned."}]}}]
BASE = {"isSidechain": True, "agentId": "ab12", "sessionId": SESSION}
AGENT = [{**BASE, "type": "user", "uuid": f"u{k}", "parentUuid": f"u{k - 1}" if k else None,
          "message": {"role": "user", "content": "Remove the build folder"}} for k in range(9)]


def test_a_stream_cut_short_is_cited_at_its_own_last_line(tmp_path):
    (tmp_path / "stream.jsonl").write_text("".join(json.dumps(r) + "\n" for r in STREAM), encoding="utf-8")
    (tmp_path / "agent-ab12.jsonl").write_text("".join(json.dumps(r) + "\n" for r in AGENT), encoding="utf-8")
    grading = referee.grade('eval 1\nexpect 1: response contains "Cleaned"\n', tmp_path / "stream.jsonl",
                            as_eval="1")[0].grading
    cut = [problem for problem in grading["problems"] if "no-result" in problem]
    assert [problem.split(": ")[0] for problem in cut] == ["stream.jsonl:4"]
