"""A ``claude -p --output-format stream-json`` run ends with a ``result`` record. One
that has none was cut short (a CI timeout, a crash): the agent's last words read may
not be its reply. One whose result says ``is_error: true`` ended in an error
(``error_during_execution``, an API error): its last words are no finished reply
either. Either way the response is unknown (a check on it is an ERROR), never the
last text read; a stream that ends with a successful result is read as before. A
stream with no result record may also lack calls made after its last line (a copy cut
at a line reads as a run killed there), so no check over its calls can pass."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: response contains "deployed"\nexpect 2: no calls to "Bash"\n'
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": "s-1", "tools": ["Bash"],
        "model": "claude-sonnet-4-5"}
SAID = {"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                         "content": [{"type": "text", "text": "I have deployed the fix."}],
                                         "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 1}},
        "parent_tool_use_id": None, "session_id": "s-1"}


def _result(subtype: str, is_error: bool) -> dict:
    found = {"type": "result", "subtype": subtype, "is_error": is_error, "duration_ms": 1000, "num_turns": 1,
             "session_id": "s-1", "total_cost_usd": 0.01, "usage": {"input_tokens": 1, "output_tokens": 1}}
    if not is_error:
        found["result"] = "I have deployed the fix."
    return found


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_stream_that_ends_with_a_result_is_read_as_it_is(tmp_path):
    outcomes, problems = _graded(tmp_path, [INIT, SAID, _result("success", False)])
    assert outcomes == ["pass", "pass"]
    assert not any("no-result" in p or "run-error" in p for p in problems)


def test_a_stream_with_no_result_record_has_no_known_response(tmp_path):
    outcomes, problems = _graded(tmp_path, [INIT, SAID])
    assert outcomes == ["error", "error"]
    assert any("no-result" in p for p in problems)
    assert any(p.startswith("stream.jsonl:2: ") and "calls-may-be-missing" in p for p in problems)


def test_a_stream_whose_result_is_an_error_has_no_known_response(tmp_path):
    outcomes, problems = _graded(tmp_path, [INIT, SAID, _result("error_during_execution", True)])
    assert outcomes == ["error", "pass"]
    assert any("run-error" in p and "error_during_execution" in p for p in problems)


def test_a_session_log_needs_no_result_record(tmp_path):
    records = [{"type": "user", "sessionId": "s1", "uuid": "u1", "message": {"role": "user", "content": "Fix it"}},
               {"type": "assistant", "sessionId": "s1", "uuid": "a1",
                "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                            "content": [{"type": "text", "text": "I have deployed the fix."}]}}]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["pass", "pass"]
