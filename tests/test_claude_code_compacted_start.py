"""A Claude Code session that opens with a compaction (a ``compact_boundary`` system
record, or the summary Claude Code writes in the user's place, ``isCompactSummary``,
before any work of the agent) continues work done before it that this file does not
hold: the calls of that work are unknown, so a check over the run's calls is an
ERROR, never a pass on the calls made after it. A compaction in the middle of a
session, after the work it summarises, changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: response contains "deployed"\n'
SESSION = "sess-2"
BOUNDARY = {"type": "system", "subtype": "compact_boundary", "uuid": "c1", "parentUuid": None,
            "logicalParentUuid": "a0", "sessionId": SESSION, "content": "Conversation compacted",
            "compactMetadata": {"trigger": "auto", "preTokens": 155025}}
SUMMARY = {"type": "user", "uuid": "cs1", "parentUuid": "c1", "sessionId": SESSION, "isCompactSummary": True,
           "isVisibleInTranscriptOnly": True,
           "message": {"role": "user", "content": "This session is being continued from a previous conversation "
                                                  "that ran out of context. Summary: the build was removed."}}
REPLY = {"type": "assistant", "uuid": "a1", "parentUuid": "cs1", "sessionId": SESSION,
         "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                     "content": [{"type": "text", "text": "All deployed."}]}}
EARLIER = [{"type": "user", "uuid": "u0", "parentUuid": None, "sessionId": SESSION,
            "message": {"role": "user", "content": "Deploy the fix"}},
           {"type": "assistant", "uuid": "a0", "parentUuid": "u0", "sessionId": SESSION,
            "message": {"id": "m0", "role": "assistant", "stop_reason": "end_turn",
                        "content": [{"type": "text", "text": "On it."}]}}]


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_session_that_opens_with_a_compaction_summary_has_unknown_calls(tmp_path):
    outcomes, problems = _graded(tmp_path, [SUMMARY, REPLY])
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in p and "session.jsonl:1" in p for p in problems)


def test_a_session_that_opens_with_a_compact_boundary_has_unknown_calls(tmp_path):
    snapshot = {"type": "file-history-snapshot", "messageId": "x", "snapshot": {}}
    outcomes, problems = _graded(tmp_path, [snapshot, BOUNDARY, SUMMARY, REPLY])
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in p and "session.jsonl:2" in p for p in problems)


def test_a_stream_that_opens_with_a_compact_boundary_has_unknown_calls(tmp_path):
    init = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}
    boundary = {"type": "system", "subtype": "compact_boundary", "session_id": SESSION,
                "compact_metadata": {"trigger": "auto", "pre_tokens": 155025}}
    reply = {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
             "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "All deployed."}]}}
    result = {"type": "result", "subtype": "success", "is_error": False, "result": "All deployed.",
              "session_id": SESSION}
    outcomes, problems = _graded(tmp_path, [init, boundary, reply, result])
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in p for p in problems)


def test_a_compaction_after_the_work_it_summarises_changes_nothing(tmp_path):
    outcomes, problems = _graded(tmp_path, EARLIER + [BOUNDARY, SUMMARY, REPLY])
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems)
