"""A tool call id written as a number (``"id": 1``, some local servers) pairs with the
tool message of the same ``tool_call_id``, as a text id does: parallel calls answered
out of order keep their own answers and statuses, never the answer of the call
before or after them. An id that matches no call (``1`` and ``1.0``, ``1`` and
``"1"`` are not the same) is an orphan answer, and the calls are unknown."""

from __future__ import annotations

import json

import referee

RULES = ('eval 1\nexpect 1: count(calls to "Read" with status error) == 0\n'
         'expect 2: all calls to "Bash" have .status == "error"\n')


def _call(call_id: object, name: str) -> dict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}


def _grade(tmp_path, first: object, second: object) -> list[str]:
    messages = [{"role": "user", "content": "clean up"},
                {"role": "assistant", "content": None, "tool_calls": [_call(1, "Bash"), _call(2, "Read")]},
                {"role": "tool", "tool_call_id": second, "content": "boom", "is_error": True},
                {"role": "tool", "tool_call_id": first, "content": "fine", "is_error": False},
                {"role": "assistant", "content": "Done."}]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]]


def test_number_ids_pair_answers_out_of_order(tmp_path):
    # Read failed and Bash did not: not the other way round
    assert _grade(tmp_path, 1, 2) == ["fail", "fail"]


def test_an_id_of_another_type_matches_no_call(tmp_path):
    # the Bash call read is answered by no id: not an error, whatever other calls there are
    assert _grade(tmp_path, "1", 2.0) == ["error", "fail"]
