"""A Responses API ``compaction`` item (``{"type": "compaction", "encrypted_content":
...}``, what ``responses.compact`` returns and a compacting session keeps) stands for
the items before it that the API compacted: calls, their answers and replies, kept
encrypted, which no reader can open. The run's calls are unknown (``no calls to "X"``
is an ERROR, never a pass on the items left) and so is the response, as for an
``item_reference``."""

from __future__ import annotations

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: no calls to "Bash"\nexpect 2: not (response contains "1234")\n'
         'expect 3: count(calls) == 1\n')
PROMPT = {"role": "user", "content": "clean up"}
COMPACTION = {"id": "cmp_68d1", "type": "compaction", "encrypted_content": "gAAAAABo0Qv2x1"}
CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}}]}
ANSWER = {"role": "tool", "tool_call_id": "c1", "content": "ok"}
REPLY = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}


def _grade(tmp_path, *messages: dict) -> tuple[list[str], list[str]]:
    source = json_file(tmp_path / "chat.json", [PROMPT, *messages])
    return graded(RULES, source)


def test_a_compaction_item_leaves_calls_and_response_unknown(tmp_path):
    outcomes, problems = _grade(tmp_path, COMPACTION, CALL, ANSWER, REPLY)
    assert outcomes == ["error", "error", "error"]
    assert any("calls-may-be-missing" in problem and "compaction" in problem for problem in problems)
    assert any("unread-text" in problem and "compaction" in problem for problem in problems)


def test_one_created_by_a_user_or_typed_in_capitals_is_one_all_the_same(tmp_path):
    outcomes, _ = _grade(tmp_path, {**COMPACTION, "type": "Compaction", "created_by": "user_1"}, CALL, ANSWER, REPLY)
    assert outcomes == ["error", "error", "error"]


def test_without_one_the_run_reads_as_before(tmp_path):
    outcomes, problems = _grade(tmp_path, CALL, ANSWER, REPLY)
    assert outcomes == ["pass", "pass", "pass"]
