"""A PostToolUse hook may answer with another output for the call it ran for
(``hookSpecificOutput.updatedMCPToolOutput`` for an MCP tool, ``updatedToolOutput`` for
any tool): the agent is then given that output, not the tool's, and neither a session
nor a stream says which of the two the answer it keeps holds. referee read the answer
kept as the tool's return all the same, so ``no calls where .return contains "AKIA"``
passed on a run whose hook gave the agent "[redacted]" in place of what the tool gave.
Now such a call's return is unsure (a check on it is an ERROR), with an
``output-changed`` problem at the hook's line saying what the hook gave; a hook that gave
no output (context, a systemMessage), or blocked with exit code 2 (its output ignored),
changes nothing."""

from __future__ import annotations

from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Call
from hook_stream import INIT, call_session, hook_response, hook_success, write_jsonl

RULES = ('eval 1\nexpect 1: no calls where .return contains "AKIA"\n'
         'expect 2: count(calls where .status == "success") >= 1\nexpect 3: response contains "Done"\n')
TOOL = "mcp__vault__get"
REDACTED = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedMCPToolOutput": "[redacted]"}}


def _call(call_id: str, tool: str = TOOL) -> dict:
    return {"type": "tool_use", "id": call_id, "name": tool, "input": {"key": "aws"}}


def _unsure(source: Path) -> list[tuple[str | None, bool]]:
    entries = conversations("claude-code", [source])[0].entries
    return [(e.call_id, "return" in e.unread) for e in entries if isinstance(e, Call)]


def _graded(source: Path) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


# A session (Claude Code 2.x) keeps what a hook printed in a hook_success attachment
# (``stdout``), naming the call it ran for (``toolUseID``).
def _success(printed: object, call_id: str = "t1", tool: str = TOOL, exit_code: int = 0) -> dict:
    return hook_success(printed, "PostToolUse", tool, call_id, exit_code)


def _session(tmp_path: Path, hook: dict, tool: str = TOOL) -> Path:
    results = [{"type": "tool_result", "tool_use_id": "t1", "content": "[redacted]"},
               {"type": "tool_result", "tool_use_id": "t2", "content": "none"}]
    return call_session(tmp_path, "get the key", [_call("t1", tool), _call("t2", tool)], results, hook, hook_at=3)


def test_a_session_s_post_tool_use_hook_that_replaced_the_output_makes_the_call_s_return_unsure(tmp_path: Path):
    source = _session(tmp_path, _success(REDACTED))
    assert _unsure(source) == [("t1", True), ("t2", False)]
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]
    assert problems == [
        "session.jsonl:4: warning[output-changed]: the PostToolUse:mcp__vault__get hook gave the agent another "
        "output for call 't1' ('mcp__vault__get'), \"[redacted]\": the answer kept may be the hook's or the "
        "tool's, so a check on its return is an error"]


def test_updated_tool_output_of_any_tool_is_read_too(tmp_path: Path):
    answer = {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                     "updatedToolOutput": {"stdout": "[redacted]", "stderr": ""}}}
    source = _session(tmp_path, _success(answer, tool="Bash"), tool="Bash")
    assert _unsure(source) == [("t1", True), ("t2", False)]
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]
    assert len(problems) == 1 and "output-changed" in problems[0] and '"stdout": "[redacted]"' in problems[0]


def test_a_post_tool_use_hook_that_gave_no_output_changes_nothing(tmp_path: Path):
    context = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "checked"}}
    for hook in (_success({"systemMessage": "scanned"}), _success("scanned\n"), _success(REDACTED, exit_code=2)):
        source = _session(tmp_path, hook)
        assert _unsure(source) == [("t1", False), ("t2", False)]
        assert _graded(source) == (["pass", "pass", "pass"], [])
    source = _session(tmp_path, _success(context))
    assert _unsure(source) == [("t1", False), ("t2", False)]


def test_a_post_tool_use_answer_in_a_shape_not_read_may_have_replaced_the_output(tmp_path: Path):
    source = _session(tmp_path, _success(["not", "text"]))
    assert _unsure(source) == [("t1", True), ("t2", False)]
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]
    assert len(problems) == 1 and "output-changed" in problems[0] and "shape not read" in problems[0]


def test_a_session_s_answer_for_a_call_not_held_makes_the_calls_incomplete(tmp_path: Path):
    outcomes, problems = _graded(_session(tmp_path, _success(REDACTED, call_id="t9")))
    assert outcomes == ["error", "pass", "pass"]  # the call read answered with success was made
    assert any("calls-may-be-missing" in p and "session.jsonl:4" in p and "changed the output" in p
               for p in problems)


# A stream (stream-json) reports each hook it ran in a hook_response record that names no
# call: the answer is taken by the calls of the tool its name gives that it may have run
# for, open at its line or answered with the agent not given the answer yet.
def _stream(tmp_path: Path, hook_after_answer: bool) -> Path:
    def said(key: str, content: list) -> dict:
        return {"type": "assistant", "message": {"id": key, "role": "assistant", "content": content},
                "session_id": "s"}

    def answer(call_id: str) -> dict:
        return {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call_id, "content": "[redacted]"}]}, "session_id": "s"}
    hook = hook_response(REDACTED, "PostToolUse", TOOL)
    latest = [answer("t2"), hook] if hook_after_answer else [hook, answer("t2")]
    records = [
        INIT, {"type": "user", "message": {"role": "user", "content": "get the key"}, "session_id": "s"},
        said("m1", [_call("t1")]), answer("t1"),  # answered, and seen by the agent before the hook ran
        said("m2", [_call("t2")]), *latest,
        said("m3", [{"type": "text", "text": "Done."}]),
        {"type": "result", "subtype": "success", "is_error": False, "result": "Done.", "session_id": "s"}]
    return write_jsonl(tmp_path / "stream.jsonl", records)


def test_a_stream_s_post_tool_use_hook_is_taken_by_the_call_whose_answer_the_agent_had_not_seen(tmp_path: Path):
    for after, line in ((False, 6), (True, 7)):
        source = _stream(tmp_path, after)
        assert _unsure(source) == [("t1", False), ("t2", True)]
        outcomes, problems = _graded(source)
        assert outcomes == ["error", "pass", "pass"]
        assert len(problems) == 1 and f"stream.jsonl:{line}: warning[output-changed]" in problems[0]
        assert "'t2'" in problems[0]
