"""A command Claude Code runs in the background (``run_in_background``, Ctrl+B, or moved
there when it outran its timeout) is answered at once with a notice ("Command running in
background with ID: ..."), never its output nor how it ended: those come later, to other
calls (BashOutput, TaskOutput), if at all. So a check on that call's return or status is
an ERROR, never a pass on the notice; the later calls are read as they are. So too for
the other tools whose answer is only a start notice: a Monitor call (its watcher's lines
come later, as task notifications) and an Agent call whose subagent runs on in the
background ("Async agent launched successfully")."""

from __future__ import annotations

import json

import pytest

import referee
from claude_session import answer, call, one_call_session

NOTICE = "Command running in background with ID: bash_1"
OUTPUT = "<status>completed</status>\n\n<exit_code>1</exit_code>\n\n<stdout>\ntest_a FAILED\n</stdout>"


# A later call reads the command's output: the background command's outcome is there.
READ_OUTPUT = (call("a1", "m1", "t2", "BashOutput", {"bash_id": "bash_1"}),
               answer("r1", "t2", OUTPUT, structured={"shellId": "bash_1", "status": "completed", "exitCode": 1,
                                                      "stdout": "test_a FAILED"}))


def _session(tmp_path, args: dict, content: object, structured: object = None, is_error: bool = False,
             tool: str = "Bash"):
    return one_call_session(tmp_path, tool, args, content, is_error=is_error, structured=structured,
                            later=READ_OUTPUT)


RULES = """eval 1
expect 1: no calls to "Bash" have .return contains "FAILED"
expect 2: no calls to "Bash" with status error
expect 3: exactly 1 calls to "Bash" where .args.command == "pytest"
expect 4: any calls to "BashOutput" have .return contains "FAILED"
"""


def _graded(session):
    result, = referee.grade(RULES, session, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


@pytest.mark.parametrize("args, content, structured", [
    # asked for: Claude Code 1.x and 2.x notices, with and without the structured answer
    ({"command": "pytest", "run_in_background": True}, NOTICE,
     {"stdout": "", "stderr": "", "interrupted": False, "isImage": False, "backgroundTaskId": "bash_1"}),
    ({"command": "pytest", "run_in_background": True}, NOTICE + ". Output is being written to: /tmp/t/b1.output. "
     "You will be notified when it completes.", None),
    # moved there when it outran its timeout: the structured answer alone says so
    ({"command": "pytest"}, None, {"backgroundTaskId": "bmd0i64ke", "timedOutAfterMs": 120000}),
    ({"command": "pytest"}, "Command did not complete within its 120s timeout and was moved to the background "
     "(ID: b9yrb7nd3). Output is being written to: /tmp/x/tasks/b9yrb7nd3.output.", None),
    # sent there by the user (Ctrl+B)
    ({"command": "pytest"}, "Command was manually backgrounded by user with ID: b2", {"backgroundedByUser": True}),
])
def test_a_call_left_in_the_background_has_no_return_or_status(tmp_path, args, content, structured):
    outcomes, problems = _graded(_session(tmp_path, args, content, structured))
    assert outcomes == ["error", "error", "pass", "pass"]
    assert any("background" in p for p in problems), problems


def test_a_command_that_ran_in_the_foreground_is_read(tmp_path):
    outcomes, problems = _graded(_session(tmp_path, {"command": "pytest"}, "1 passed"))
    assert outcomes == ["pass", "pass", "pass", "pass"]
    assert not any("background" in p for p in problems), problems


def test_a_background_launch_refused_is_an_error(tmp_path):
    refused = "<tool_use_error>InputValidationError: run_in_background is not allowed</tool_use_error>"
    outcomes, _ = _graded(_session(tmp_path, {"command": "pytest", "run_in_background": True}, refused, is_error=True))
    assert outcomes == ["pass", "fail", "pass", "pass"]


def test_a_stream_json_background_call_is_read_so_too(tmp_path):
    """What ``claude -p --output-format stream-json`` prints names the structured answer
    ``tool_use_result``."""
    def rec(kind, content, **more):
        return {"type": kind, "session_id": "S1", "parent_tool_use_id": None, **more,
                "message": {"role": kind, "content": content}}
    records = [
        {"type": "system", "subtype": "init", "session_id": "S1", "tools": ["Bash"]},
        rec("user", "run the tests"),
        rec("assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                           "input": {"command": "pytest", "run_in_background": True}}]),
        rec("user", [{"type": "tool_result", "tool_use_id": "t1", "content": NOTICE}],
            tool_use_result={"stdout": "", "stderr": "", "backgroundTaskId": "bash_1"}),
        rec("assistant", [{"type": "text", "text": "Started."}]),
        {"type": "result", "subtype": "success", "is_error": False, "session_id": "S1", "result": "Started."},
    ]
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    outcomes, _ = _graded(session)
    assert outcomes[:3] == ["error", "error", "pass"]


# Claude Code's start notices, as real sessions show them (a Monitor with a timeout, a
# persistent one, one answered by its structured value alone; an Agent run in the background)
@pytest.mark.parametrize("tool, args, content, structured", [
    ("Monitor", {"command": "tail -f app.log | grep ERROR", "timeout_ms": 120000},
     "Monitor started (task bki6zyz60, timeout 120000ms). You will be notified on each event. Keep working \u2014 "
     "do not poll or sleep.", {"taskId": "bki6zyz60", "timeoutMs": 120000, "persistent": False}),
    ("Monitor", {"command": "until curl -sf http://localhost/health; do sleep 5; done", "persistent": True},
     "Monitor started (task bmon12345, persistent \u2014 runs until TaskStop or session end). You will be notified "
     "on each event.", None),
    ("Monitor", {"command": "tail -f app.log"}, [], {"taskId": "b4w30xxzw", "timeoutMs": 600000}),
    ("Agent", {"description": "scan", "prompt": "find the failing test", "subagent_type": "Explore"},
     [{"type": "text", "text": "Async agent launched successfully.\nagentId: aa67f4fdf438e9e3b (internal ID - do "
       "not mention to user.)\nThe agent is working in the background."}], None),
])
def test_a_tool_answered_with_a_start_notice_has_no_return_or_status(tmp_path, tool, args, content, structured):
    rules = (f'eval 1\nexpect 1: no calls to "{tool}" have .return contains "ERROR"\n'
             f'expect 2: no calls to "{tool}" with status error\nexpect 3: exactly 1 calls to "{tool}"\n')
    result, = referee.grade(rules, _session(tmp_path, args, content, structured, tool=tool), as_eval="1")
    # (the Agent call's subagent is not in the record: the count of its calls is unknown too)
    assert [e["outcome"] for e in result.grading["expectations"]][:2] == ["error", "error"]
    assert any("backgrounded" in p for p in result.grading["problems"]), result.grading["problems"]


def test_a_monitor_refused_is_read_as_it_is(tmp_path):
    refused = "<tool_use_error>Permission to use Monitor has been denied.</tool_use_error>"
    result, = referee.grade('eval 1\nexpect 1: no calls to "Monitor" with status error\n',
                            _session(tmp_path, {"command": "tail -f x"}, refused, is_error=True, tool="Monitor"),
                            as_eval="1")
    assert [e["outcome"] for e in result.grading["expectations"]] == ["fail"]
