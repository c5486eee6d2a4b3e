"""``claude -p --output-format stream-json --include-partial-messages`` prints, besides
the messages, ``stream_event`` records: the model's output as it streams (a
``message_start``, each block's ``content_block_start`` and deltas, ``message_stop``).
They are partial copies of the ``assistant`` records that follow them whole: when every
block they started came whole, they are skipped without a word (never an unknown
record, never a call that may be missing). A block they started that never came whole
(the stream cut short while the model wrote it) is not read: a call there leaves the
run's calls unknown, text there the response."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = ('eval 1\nexpect 1: no calls to "Bash" have .args.command contains "rm "\n'
         'expect 2: response contains "deployed"\n')
SESSION = "s-1"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"],
        "model": "claude-sonnet-4-5"}
PROMPT = {"type": "user", "message": {"role": "user", "content": "Deploy the fix"}, "parent_tool_use_id": None,
          "session_id": SESSION}
RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "I have deployed the fix.",
          "session_id": SESSION, "usage": {"input_tokens": 1, "output_tokens": 1}}


def _event(event: dict) -> dict:
    return {"type": "stream_event", "event": event, "parent_tool_use_id": None, "session_id": SESSION, "uuid": "e"}


def _assistant(message_id: str, block: dict) -> dict:
    return {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
            "message": {"id": message_id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                        "content": [block], "stop_reason": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}


def _started(message_id: str, block: dict, delta: dict) -> list[dict]:
    """The events of a message's first block, up to the point its whole record is printed."""
    return [_event({"type": "message_start", "message": {"id": message_id, "type": "message", "role": "assistant",
                                                         "content": [], "usage": {"input_tokens": 1}}}),
            _event({"type": "content_block_start", "index": 0, "content_block": block}),
            _event({"type": "content_block_delta", "index": 0, "delta": delta})]


def _ended() -> list[dict]:
    return [_event({"type": "content_block_stop", "index": 0}),
            _event({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}}),
            _event({"type": "message_stop"})]


CALL = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "git push"}}
CALL_STARTED = _started("msg_1", {**CALL, "input": {}},
                        {"type": "input_json_delta", "partial_json": '{"command": "git push"}'})
ANSWER = {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                                  "content": "pushed", "is_error": False}]},
          "parent_tool_use_id": None, "session_id": SESSION}
REPLY = {"type": "text", "text": "I have deployed the fix."}
REPLY_STARTED = _started("msg_2", {"type": "text", "text": ""}, {"type": "text_delta", "text": REPLY["text"]})


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_partial_messages_whose_records_came_whole_are_skipped_without_a_word(tmp_path):
    records = ([INIT, PROMPT] + CALL_STARTED + [_assistant("msg_1", CALL)] + _ended() + [ANSWER]
               + REPLY_STARTED + [_assistant("msg_2", REPLY)] + _ended() + [RESULT])
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["pass", "pass"]
    assert not any("unknown-record" in p or "calls-may-be-missing" in p or "unread-text" in p for p in problems)


def test_a_call_started_whose_record_never_came_leaves_the_calls_unknown(tmp_path):
    cut = _started("msg_2", {"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {}},
                   {"type": "input_json_delta", "partial_json": '{"command": "rm -rf /'})
    records = ([INIT, PROMPT] + CALL_STARTED + [_assistant("msg_1", CALL)] + _ended() + [ANSWER] + cut + [RESULT])
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes[0] == "error"
    assert any("calls-may-be-missing" in p and "stream.jsonl:12" in p for p in problems)


def test_a_second_block_that_never_came_whole_is_not_taken_for_the_first(tmp_path):
    """One message, one record per block: its text came whole, the call after it did not."""
    records = ([INIT, PROMPT] + _started("msg_1", {"type": "text", "text": ""}, {"type": "text_delta", "text": "Now"})
               + [_assistant("msg_1", {"type": "text", "text": "Now"}), _event({"type": "content_block_stop", "index": 0}),
                  _event({"type": "content_block_start", "index": 1,
                          "content_block": {"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {}}})])
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes[0] == "error"
    assert any("calls-may-be-missing" in p for p in problems)


def test_text_started_whose_record_never_came_leaves_the_response_unknown(tmp_path):
    """A result record after it all the same (a run that says it succeeded) does not make
    the words before it the reply."""
    cut = _started("msg_3", {"type": "text", "text": ""}, {"type": "text_delta", "text": "Sorry, I could not"})
    records = ([INIT, PROMPT] + REPLY_STARTED + [_assistant("msg_2", REPLY)] + _ended() + cut + [RESULT])
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["pass", "error"]
    assert any("unread-text" in p for p in problems)
