"""An Assistants API export of a thread's messages (``"object": "thread.message"``,
text parts ``{"type": "text", "text": {"value": ...}}``) holds no tool call: the calls
of its runs are in their run steps, which the importer does not read. So the run's
calls are unknown (``calls-may-be-missing``), and ``no calls to "X"`` is an ERROR,
never a pass; the replies are read as before."""

from __future__ import annotations

import json

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: response contains "Done"\nexpect 3: count(calls) == 0\n'


def _message(number: int, role: str, text: str) -> dict:
    return {"id": f"msg_{number}", "object": "thread.message", "created_at": 1700000000 + number,
            "thread_id": "thread_1", "role": role, "assistant_id": "asst_1" if role == "assistant" else None,
            "run_id": "run_1" if role == "assistant" else None, "attachments": [], "metadata": {},
            "content": [{"type": "text", "text": {"value": text, "annotations": []}}]}


def _grade(tmp_path, messages: list) -> tuple[list[dict], list[str]]:
    source = tmp_path / "thread.json"
    source.write_text(json.dumps(messages, indent=2), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return grading["expectations"], grading["problems"]


def test_a_thread_s_calls_are_unknown(tmp_path):
    expectations, problems = _grade(tmp_path, [_message(1, "user", "clean up"), _message(2, "assistant", "Done.")])
    assert [e["outcome"] for e in expectations] == ["error", "pass", "error"]
    assert sum("calls-may-be-missing" in problem for problem in problems) == 1
    assert any("run steps" in problem for problem in problems)


def test_a_thread_in_a_messages_object_likewise(tmp_path):
    messages = {"messages": [_message(1, "user", "clean up"), _message(2, "assistant", "Done."),
                             _message(3, "assistant", "Done again.")]}
    expectations, problems = _grade(tmp_path, messages)
    assert [e["outcome"] for e in expectations] == ["error", "pass", "error"]
    assert sum("calls-may-be-missing" in problem for problem in problems) == 1  # said once


def test_chat_completions_messages_are_not_threads(tmp_path):
    expectations, problems = _grade(tmp_path, [{"role": "user", "content": "clean up"},
                                               {"role": "assistant", "content": "Done.", "object": "message"}])
    assert [e["outcome"] for e in expectations] == ["pass", "pass", "pass"]
    assert not any("calls-may-be-missing" in problem for problem in problems)
