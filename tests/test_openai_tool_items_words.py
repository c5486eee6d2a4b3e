"""A Responses API item that is a tool call or a tool's answer (``file_search_call``
with the text of its results, ``function_call_output`` whose output is text parts)
makes the run's calls unknown, as the importer does not read such items, but its text
is the tool's, never a reply: the response read beside it stays usable, where it was
an ERROR. An item of no such type that holds text still leaves the response unknown."""

from __future__ import annotations

import pytest

from openai_chat import graded, json_file

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: response contains "Done"\n'
PROMPT = {"role": "user", "content": "find it"}
REPLY = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}

TOOL_ITEMS = {
    "file-search-call": {"type": "file_search_call", "id": "fs_1", "status": "completed", "queries": ["q"],
                         "results": [{"file_id": "f", "filename": "a.md", "score": 0.9, "text": "the file says"}]},
    "function-call-output-parts": {"type": "function_call_output", "call_id": "c1",
                                   "output": [{"type": "input_text", "text": "the tool says"}]},
}


def _grade(tmp_path, *messages: dict) -> tuple[list[str], list[str]]:
    source = json_file(tmp_path / "chat.json", [PROMPT, *messages])
    return graded(RULES, source)


@pytest.mark.parametrize("item", TOOL_ITEMS.values(), ids=TOOL_ITEMS.keys())
def test_a_tool_item_s_text_is_no_reply(tmp_path, item):
    outcomes, problems = _grade(tmp_path, item, REPLY)
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in problem for problem in problems)
    assert not any("unread-text" in problem for problem in problems)


def test_another_item_with_text_leaves_the_response_unknown(tmp_path):
    outcomes, problems = _grade(tmp_path, {"type": "output_message", "content": [{"type": "text", "text": "1234"}]},
                                REPLY)
    assert outcomes[1] == "error"
    assert any("unread-text" in problem for problem in problems)
