"""An element of a message list that is not read (null, a string, a message of a role
the format does not have, a JSON line that is not JSON) while calls are open: tools
answer in messages, so a call's answer may be in it. A call still unanswered at the
end then has an answer whose status and return are unknown, never none: left open,
it read as a call never answered, and ``no calls with status error`` passed on the
real AutoGen run whose failed draw_time_series answer was replaced by null."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openai_chat import graded, json_file

RULES = 'eval 1\nexpect 1: no calls with status error\nexpect 2: count(calls to "bash") == 1\n'
ERROR_WHEN = 'eval 1\nexpect 1: no calls with status error\n'


def _call(call_id: str = "call_1") -> dict:
    return {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}


def _chat(middle: list) -> list:
    return [{"role": "user", "content": "list the files"},
            {"role": "assistant", "content": None, "tool_calls": [_call()]},
            *middle,
            {"role": "assistant", "content": "Done."}]


@pytest.mark.parametrize("element", [None, "Error: no such file", 7, {"role": "zz", "content": "Error: failed"},
                                     {"content": "Error: failed", "tool_call_id": "call_1"}])
def test_an_element_not_read_where_the_answer_may_be_leaves_the_status_unknown(tmp_path: Path, element):
    verdicts, problems = graded(RULES, json_file(tmp_path / "chat.json", _chat([element])))
    assert verdicts[0] == "error"  # and an element naming a call's id makes the calls unknown too
    assert any("warning[status-unknown]" in problem and "chat.json:" in problem for problem in problems)


def test_a_json_line_not_read_where_the_answer_may_be_leaves_the_status_unknown(tmp_path: Path):
    lines = [json.dumps(m) for m in _chat([])]
    lines.insert(2, "ls: cannot access 'x': No such file or directory")  # a program's output in the log
    source = tmp_path / "chat.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verdicts, problems = graded(RULES, source)
    assert verdicts == ["error", "pass"]
    assert any("chat.jsonl:3: warning[status-unknown]" in problem for problem in problems)


def test_an_answer_after_the_element_decides_the_status(tmp_path: Path):
    answer = {"role": "tool", "tool_call_id": "call_1", "content": "a.txt"}
    assert graded(RULES, json_file(tmp_path / "chat.json", _chat([None, answer])))[0] == ["pass", "pass"]
    failed = {**answer, "is_error": True}
    assert graded(RULES, json_file(tmp_path / "chat.json", _chat([None, failed])))[0] == ["fail", "pass"]


def test_an_element_not_read_with_no_call_open_changes_no_status(tmp_path: Path):
    answer = {"role": "tool", "tool_call_id": "call_1", "content": "a.txt"}
    assert graded(RULES, json_file(tmp_path / "chat.json", _chat([answer, None])))[0] == ["pass", "pass"]
