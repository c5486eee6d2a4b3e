"""``claude -p --output-format stream-json --verbose`` (what Claude Code prints in CI):
one record per line, ``system`` (``init``), ``assistant``, ``user`` and a last
``result``, each naming the session by ``session_id``. A subagent's messages are in
the same stream, marked only by ``parent_tool_use_id`` (the id of the Task call that
started it): they are that subagent's work, nested under its Task call (so a check
over the run's calls sees them, and the Task's subagent is no missing transcript),
never the main agent's calls. The structured answer of a call is ``tool_use_result``."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.source_format import detect
from referee.engine.run.importers.record import Call

SESSION = "6170607e-7232-407c-82c3-7fc983d60064"
RULES = ('eval 1\nexpect 1: no calls to "Bash" have .args.command contains "rm "\n'
         'expect 2: exactly 1 calls to "Task"\n'
         'expect 3: any calls to "Bash" have .agent == "step-1"\n'
         'expect 4: response contains "Removed"\n')


def _line(kind: str, content: object, parent: str | None = None, message_id: str = "", **extra: object) -> dict:
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"id": message_id, "type": "message", "model": "claude-sonnet-4-5", **message,
                   "stop_reason": None, "usage": {"input_tokens": 3, "output_tokens": 1}}
    return {"type": kind, "message": message, "parent_tool_use_id": parent, "session_id": SESSION, **extra}


def _stream(folder: Path, task_answer: dict | None = None, subagent: bool = True) -> Path:
    records = [
        {"type": "system", "subtype": "init", "cwd": "/home/user/project", "session_id": SESSION,
         "tools": ["Task", "Bash"], "model": "claude-sonnet-4-5", "permissionMode": "default"},
        _line("assistant", [{"type": "tool_use", "id": "toolu_task", "name": "Task",
                             "input": {"subagent_type": "Explore", "description": "clean",
                                       "prompt": "Remove the build output"}}], message_id="msg_1"),
    ]
    if subagent:
        records += [
            _line("assistant", [{"type": "tool_use", "id": "toolu_bash", "name": "Bash",
                                 "input": {"command": "rm -rf build"}}], "toolu_task", "msg_2"),
            _line("user", [{"tool_use_id": "toolu_bash", "type": "tool_result", "content": "", "is_error": False}],
                  "toolu_task"),
        ]
    extra = {"tool_use_result": task_answer} if task_answer is not None else {}
    records += [
        _line("user", [{"tool_use_id": "toolu_task", "type": "tool_result",
                        "content": [{"type": "text", "text": "Removed build/"}]}], **extra),
        _line("assistant", [{"type": "text", "text": "Removed the build output."}], message_id="msg_3"),
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 4000, "num_turns": 3,
         "result": "Removed the build output.", "session_id": SESSION, "total_cost_usd": 0.01,
         "usage": {"input_tokens": 9, "output_tokens": 3}, "permission_denials": []},
    ]
    path = folder / "stream.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _graded(path: Path) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, path, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_stream_is_told_a_claude_code_log(tmp_path):
    assert detect(_stream(tmp_path)) == "claude-code"


def test_a_subagent_s_calls_are_nested_under_the_task_that_started_it(tmp_path):
    conversation = conversations("auto", [_stream(tmp_path)])[0]
    main = [entry for entry in conversation.entries if isinstance(entry, Call)]
    assert [call.tool for call in main] == ["Task"]
    assert [call.tool for call in main[0].subagent.entries if isinstance(call, Call)] == ["Bash"]
    assert not any(p.code == "calls-may-be-missing" for p in conversation.problems)


def test_a_subagent_s_forbidden_call_fails_the_check(tmp_path):
    outcomes, problems = _graded(_stream(tmp_path))
    assert outcomes == ["fail", "pass", "pass", "pass"]
    assert not any("calls-may-be-missing" in problem for problem in problems)


def test_a_task_whose_subagent_left_no_message_leaves_the_calls_unknown(tmp_path):
    outcomes, problems = _graded(_stream(tmp_path, subagent=False))
    assert outcomes == ["error", "error", "error", "pass"]
    assert any("calls-may-be-missing" in problem for problem in problems)


def test_a_task_answer_counting_more_calls_than_the_stream_holds_leaves_the_calls_unknown(tmp_path):
    answer = {"status": "completed", "prompt": "Remove the build output", "totalToolUseCount": 2,
              "content": [{"type": "text", "text": "Removed build/"}]}
    outcomes, problems = _graded(_stream(tmp_path, task_answer=answer))
    # the subagent's 'rm -rf build' read was run, whatever its other call was: not 'exactly 1 Task'
    assert outcomes[:3] == ["fail", "error", "pass"]
    assert any("calls-may-be-missing" in problem and "says its subagent made 2 calls" in problem
               for problem in problems)


def test_a_task_answer_counting_the_calls_the_stream_holds_changes_nothing(tmp_path):
    answer = {"status": "completed", "prompt": "Remove the build output", "agentId": "a42ed3cc731261c2c",
              "totalToolUseCount": 1, "content": [{"type": "text", "text": "Removed build/"}]}
    outcomes, problems = _graded(_stream(tmp_path, task_answer=answer))
    assert outcomes == ["fail", "pass", "pass", "pass"]
    assert not any("calls-may-be-missing" in problem for problem in problems)


REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-json-diagnostic"


def test_a_real_stream_is_told_and_its_subagents_nested():
    source = REAL / "claude-stream-json-simple.jsonl"
    assert detect(source) == "claude-code"
    conversation = conversations("auto", [source])[0]
    main = [entry for entry in conversation.entries if isinstance(entry, Call)]
    assert len(main) == 8
    tasks = [call for call in main if call.tool == "Task"]
    assert [sum(isinstance(e, Call) for e in task.subagent.entries) for task in tasks] == [7, 6]
    assert [p.code for p in conversation.problems] == ["usage-snapshot"]


def test_a_record_whose_type_is_no_text_is_told_no_stream(tmp_path):
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps({"type": [], "session_id": SESSION}) + "\n", encoding="utf-8")
    assert detect(path) is None
