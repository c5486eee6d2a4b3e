"""A Responses API ``item_reference`` among OpenAI-format messages (``{"type":
"item_reference", "id": "fc_1"}``) stands for an item the list does not hold: a call,
a tool's answer or a reply, sent earlier and stored by the API. What it stands for
is not read, so the run's calls are unknown (``no calls to "X"`` is an ERROR, never a
pass) and so is the response."""

from __future__ import annotations

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: no calls to "Bash"\nexpect 2: not (response contains "1234")\n'
         'expect 3: count(calls to "Read" with status success) == 1\n')
PROMPT = {"role": "user", "content": "clean up"}
CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}}]}
ANSWER = {"role": "tool", "tool_call_id": "c1", "content": "ok"}
REPLY = {"role": "assistant", "content": "Done."}


def _grade(tmp_path, *messages: dict) -> tuple[list[str], list[str]]:
    source = json_file(tmp_path / "chat.json", [PROMPT, CALL, ANSWER, *messages])
    return graded(RULES, source)


def test_an_item_reference_leaves_calls_and_response_unknown(tmp_path):
    outcomes, problems = _grade(tmp_path, {"type": "item_reference", "id": "fc_1"}, REPLY)
    assert outcomes == ["error", "error", "error"]
    assert any("calls-may-be-missing" in problem for problem in problems)
    assert any("unread-text" in problem for problem in problems)


def test_without_one_the_run_reads_as_before(tmp_path):
    outcomes, problems = _grade(tmp_path, REPLY)
    assert outcomes == ["pass", "pass", "pass"]
