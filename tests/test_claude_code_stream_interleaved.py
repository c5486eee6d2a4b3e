"""Two ``claude -p --output-format stream-json`` runs printed into one file at once
(two runs started in the background, both writing to one log) interleave their records:
a turn holds messages of the main agent that name two sessions. They were read as one
run's, each call and word counted as this session's. Such a file is refused, with an
error naming the line where the other session's message stands; a later turn that
names a new session (``claude -p --resume`` appended) is still the same run going on."""

from __future__ import annotations

import json

import pytest

import referee


def _init(session: str) -> dict:
    return {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": session, "tools": ["Bash"]}


def _prompt(session: str, text: str) -> dict:
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None,
            "session_id": session}


def _said(session: str, text: str) -> dict:
    return {"type": "assistant", "parent_tool_use_id": None, "session_id": session,
            "message": {"id": f"m-{session}", "role": "assistant", "content": [{"type": "text", "text": text}]}}


def _result(session: str, text: str) -> dict:
    return {"type": "result", "subtype": "success", "is_error": False, "result": text, "session_id": session}


def _write(tmp_path, records):
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return source


def test_two_sessions_interleaved_in_one_turn_are_refused_naming_the_line(tmp_path):
    source = _write(tmp_path, [_init("a"), _prompt("a", "fix it"), _init("b"), _prompt("b", "break it"),
                               _said("a", "Fixed."), _said("b", "Broken."), _result("a", "Fixed."),
                               _result("b", "Broken.")])
    with pytest.raises(ValueError, match=r"stream\.jsonl: line 5: a message of session 'a', in a turn \(begun "
                                         r"line 1\) whose messages before it name session 'b'"):
        referee.grade('eval 1\nexpect 1: response contains "Fixed"\n', source, as_eval="1")


def test_a_result_of_another_session_the_stream_goes_on_after_is_refused(tmp_path):
    """Each run's records together, the second's init before the first's result: the
    first result ends a turn of the second run's messages."""
    source = _write(tmp_path, [_init("a"), _prompt("a", "fix it"), _said("a", "Fixed."), _init("b"),
                               _prompt("b", "break it"), _said("b", "Broken."), _result("a", "Fixed."),
                               _result("b", "Broken.")])
    with pytest.raises(ValueError, match=r"stream\.jsonl: line 7: a result of session 'a' ends a turn whose "
                                         r"messages name session 'b', and the stream goes on \(line 8\)"):
        referee.grade('eval 1\nexpect 1: response contains "Broken"\n', source, as_eval="1")


def test_a_later_turn_of_a_new_session_is_the_same_run(tmp_path):
    source = _write(tmp_path, [_init("a"), _prompt("a", "fix it"), _said("a", "Fixed."), _result("a", "Fixed."),
                               _prompt("b", "and test it"), _said("b", "Tested."), _result("b", "Tested.")])
    result, = referee.grade('eval 1\nexpect 1: response contains "Tested"\n', source, as_eval="1")
    assert [e["outcome"] for e in result.expectations] == ["pass"]
