"""A stream-json result record lists the calls the harness refused
(``permission_denials``: each names its ``tool_use_id``): the agent asked for each of
them, so a refused call is a call of the run. One that no record read holds (a line
of the stream lost, a message not printed whole) leaves the run's calls unknown, so
``no calls to "Bash"`` is an ERROR, never a pass; a refused call read is counted as
it was read (its answer says the refusal: an error)."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: response contains "Done"\n'
SESSION = "s-13"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}
DENIED = {"tool_name": "Bash", "tool_use_id": "t1", "tool_input": {"command": "rm -rf build"}}
CALL = {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
        "message": {"id": "m1", "role": "assistant",
                    "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                 "input": {"command": "rm -rf build"}}]}}
REFUSAL = {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
           "message": {"role": "user", "content": [
               {"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                "content": "Claude requested permissions to use Bash, but you haven't granted it yet."}]}}
REPLY = {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
         "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "Done."}]}}


def _result(denials: list[dict]) -> dict:
    return {"type": "result", "subtype": "success", "is_error": False, "result": "Done.", "session_id": SESSION,
            "permission_denials": denials}


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_refused_call_no_record_holds_leaves_the_calls_unknown(tmp_path):
    outcomes, problems = _graded(tmp_path, [INIT, REPLY, _result([DENIED])])
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in problem and "permission_denials" in problem for problem in problems)


def test_a_refused_call_read_is_a_call_of_the_run(tmp_path):
    outcomes, problems = _graded(tmp_path, [INIT, CALL, REFUSAL, REPLY, _result([DENIED])])
    assert outcomes == ["fail", "pass"]
    assert not any("calls-may-be-missing" in problem for problem in problems)


def test_no_refused_call_changes_nothing(tmp_path):
    outcomes, problems = _graded(tmp_path, [INIT, REPLY, _result([])])
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in problem for problem in problems)


SUCCEEDED = {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
             "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}}


def test_a_refused_call_whose_answer_says_it_succeeded_has_an_unknown_status(tmp_path):
    source = tmp_path / "stream.jsonl"
    records = [INIT, CALL, SUCCEEDED, REPLY, _result([DENIED])]
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    rules = 'eval 1\nexpect 1: all calls to "Bash" have .status == "success"\nexpect 2: exactly 1 calls to "Bash"\n'
    grading = referee.grade(rules, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["error", "pass"]
    assert any("status-unknown" in problem and "permission_denials" in problem for problem in grading["problems"])
