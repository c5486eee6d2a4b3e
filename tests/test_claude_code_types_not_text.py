"""A block, a part of a user's message, a streamed part or a hook's answer whose ``type``
(or event name) is JSON of another kind than text (an object, a list): the importer
looked such a value up in a set of names, which hashed it, and the grade stopped with an
internal error ("unhashable type: 'dict'"). Now it is a value of no known type: a block
so typed is not read, and where it may hold a call the run's calls are unknown, so a
check over them is an ERROR that names the line, never a pass."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from hook_stream import call_stream, hook_response
from real_session import with_record_changed

REAL = "hello-world-script/transcript.jsonl"
RULES = 'eval "x"\nexpect 1: no calls to "Bash"\nexpect 2: count(calls) == 0\n'


def _retyped(kind: object):
    def change(record: dict) -> None:
        record["message"]["content"][0]["type"] = kind
    return change


def _outcomes(source: Path) -> list[tuple[str, str]]:
    expectations = referee.grade(RULES, source, as_eval="x")[0].expectations
    return [(e["outcome"], e["evidence"]) for e in expectations]


@pytest.mark.parametrize("kind", [{}, [], ["tool_use"]])
def test_a_call_block_typed_by_an_object_or_a_list_leaves_the_calls_unknown(tmp_path: Path, kind: object):
    # the real session's Bash call, its type mangled
    source, line = with_record_changed(REAL, tmp_path / "transcript.jsonl", '"name":"Bash"', _retyped(kind))
    # the Write call read was made: 'count(calls) == 0' fails whatever the mangled block held
    for (outcome, evidence), want in zip(_outcomes(source), ("error", "fail")):
        assert outcome == want
        assert f"transcript.jsonl:{line}" in evidence and "calls may be incomplete" in evidence


@pytest.mark.parametrize("kind", [{}, ["tool_use"]])
def test_a_streamed_part_typed_by_an_object_is_read_as_no_part_of_a_known_type(tmp_path: Path, kind: object):
    started = {"type": "stream_event", "session_id": "s", "parent_tool_use_id": None,
               "event": {"type": "content_block_start", "index": 0, "content_block": {"type": kind, "text": ""}}}
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}
    source = call_stream(tmp_path, [call], started, [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}])
    assert [outcome for outcome, _ in _outcomes(source)] == ["fail", "fail"]  # the whole record's call, read


def test_a_hook_answer_naming_its_event_by_an_object_changes_nothing(tmp_path: Path):
    answer = {"hookSpecificOutput": {"hookEventName": {"name": "PreToolUse"}, "updatedInput": {"command": "rm"}}}
    hook = {**hook_response(answer, "PreToolUse", "Bash"), "hook_event": None, "hook_name": None}
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}
    source = call_stream(tmp_path, [call], hook, [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}])
    assert [outcome for outcome, _ in _outcomes(source)] == ["fail", "fail"]


@pytest.mark.parametrize("kind", [{}, []])
def test_an_answer_typed_by_an_object_is_no_answer_read(tmp_path: Path, kind: object):
    # the real session's first answer, its type mangled
    source, _ = with_record_changed(REAL, tmp_path / "transcript.jsonl", '"tool_result"', _retyped(kind))
    assert [outcome for outcome, _ in _outcomes(source)] == ["fail", "fail"]  # the calls are there, answered or not
