"""A tool's answer that no call of the run can take (its id names no call read, or
it names none) shows a call the record does not hold, or answers one still open
with an id that does not match: either way the run's calls are not all known, and
a check over them is an ERROR, never a pass on the calls that were placed. An
answer repeated to a call already answered the same way is no such answer."""

from __future__ import annotations

import json
from pathlib import Path

import referee

_RECORD = {"isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": "s-1", "version": "2.1.14"}


def _line(kind: str, uuid: str, message: dict) -> str:
    return json.dumps({**_RECORD, "type": kind, "uuid": uuid, "message": message})


def _session(tmp_path: Path, answer_id: str, answer: dict) -> Path:
    lines = [
        _line("user", "u1", {"role": "user", "content": "Mail Ana her booking."}),
        _line("assistant", "a1", {"id": "m1", "role": "assistant", "stop_reason": "tool_use", "content": [
            {"type": "tool_use", "id": "toolu_book", "name": "book", "input": {}}]}),
        _line("user", "u2", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_book", "content": "ZR4P9D"}]}),
        _line("assistant", "a2", {"id": "m2", "role": "assistant", "stop_reason": "tool_use", "content": [
            {"type": "tool_use", "id": "toolu_mail", "name": "mcp__mail__send", "input": {"to": "ana"}}]}),
        _line("user", "u3", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": answer_id, **answer}]}),
        _line("assistant", "a3", {"id": "m3", "role": "assistant", "stop_reason": "end_turn", "content": [
            {"type": "text", "text": "Sent."}]}),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


RULES = """eval "session"
expect 1: no calls to "mcp__mail__send" with status success
expect 2: no calls with status error
expect 3: count(calls with status error) == 0
expect 4: response contains "Sent."
"""


def _outcomes(rules: str, source: Path, **options) -> list[str]:
    (result,) = referee.grade(rules, source, **options)
    return [item["outcome"] for item in result.expectations]


def test_a_claude_code_answer_to_no_call_read_makes_the_calls_unknown(tmp_path: Path):
    source = _session(tmp_path, "toolu_ghost", {"content": "delivered", "is_error": True})
    assert _outcomes(RULES, source) == ["error", "error", "error", "pass"]


def test_a_claude_code_answer_repeated_to_an_answered_call_changes_nothing(tmp_path: Path):
    source = _session(tmp_path, "toolu_book", {"content": "ZR4P9D"})
    # the calls are all known; the mail call, which the agent went on after with no answer
    # read, lost its answer with a line of the file: its status is unknown
    assert _outcomes(RULES, source) == ["error", "error", "error", "pass"]
    assert _outcomes('eval "session"\nexpect 1: count(calls) == 2\n', source) == ["pass"]


def _chat(tmp_path: Path, answer: dict) -> Path:
    messages = [
        {"role": "user", "content": "Clean the temp files."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "Bash", "arguments": "{\"command\": \"ls\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "a.tmp"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_2", "type": "function", "function": {"name": "Bash", "arguments": "{\"command\": \"rm a.tmp\"}"}}]},
        {"role": "tool", "status": "error", "content": "rm: permission denied", **answer},
        {"role": "assistant", "content": "Sent."},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages), encoding="utf-8")
    return path


CHAT_RULES = """eval "chat"
expect 1: no calls to "Bash" with status error
expect 2: no calls with status error
expect 3: count(calls with status error) == 0
expect 4: response contains "Sent."
"""


def test_an_openai_tool_message_that_names_no_call_makes_the_calls_unknown(tmp_path: Path):
    for answer in ({}, {"tool_call_id": "call_9"}):  # no id (the call it answers unsaid), or an id of no call
        assert _outcomes(CHAT_RULES, _chat(tmp_path, answer)) == ["error", "error", "error", "pass"], answer


def test_an_openai_answer_repeated_to_an_answered_call_changes_nothing(tmp_path: Path):
    path = _chat(tmp_path, {"tool_call_id": "call_2"})
    messages = json.loads(path.read_text(encoding="utf-8"))
    messages.insert(5, dict(messages[4]))
    path.write_text(json.dumps(messages), encoding="utf-8")
    assert _outcomes(CHAT_RULES, path) == ["fail", "fail", "fail", "pass"]
