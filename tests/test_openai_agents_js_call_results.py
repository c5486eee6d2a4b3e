"""The OpenAI Agents SDK for JavaScript keeps a tool's answer in a run's history as a
``function_call_result`` item (``computer_call_result`` for the computer tool), where
the Responses API and the Python SDK write ``function_call_output``. Its ``output``
(``{"type": "text", "text": ...}``) is the tool's text, never a reply: the run's calls
are unknown, as the importer reads no such item, but the response read beside it
stays usable, where it was an ERROR. The history below is the shape the SDK's
``result.history`` gives (``callId``, ``providerData``)."""

from __future__ import annotations

import pytest

from openai_chat import graded, json_file

RULES = 'eval 1\nexpect 1: no calls to "create_customer"\nexpect 2: response contains "Bob has been created"\n'
PROMPT = {"role": "user", "content": "Create customer Bob."}
CALL = {"type": "function_call", "id": "fc_1", "callId": "call_1", "name": "create_customer", "status": "completed",
        "arguments": "{\"name\":\"Bob\"}", "providerData": {"id": "fc_1", "type": "function_call"}}
REPLY = {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed", "providerData": {},
         "content": [{"type": "output_text", "text": "Bob has been created.", "annotations": [], "logprobs": []}]}

RESULTS = {
    "function-call-result": {"type": "function_call_result", "name": "create_customer", "callId": "call_1",
                             "status": "completed", "output": {"type": "text", "text": "{\"id\": \"CUST-1\"}"}},
    "computer-call-result": {"type": "computer_call_result", "callId": "call_1", "status": "completed",
                             "output": {"type": "computer_screenshot", "text": "a screen"}},
}


def _grade(tmp_path, *messages: dict) -> tuple[list[str], list[str]]:
    source = json_file(tmp_path / "history.json", [PROMPT, *messages], indent=2)
    return graded(RULES, source)


@pytest.mark.parametrize("result", RESULTS.values(), ids=RESULTS.keys())
def test_a_call_result_item_s_text_is_no_reply(tmp_path, result):
    outcomes, problems = _grade(tmp_path, CALL, result, REPLY)
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in problem for problem in problems)
    assert not any("unread-text" in problem for problem in problems)


def test_a_reply_in_a_result_of_no_tool_still_leaves_the_response_unknown(tmp_path):
    # only an item typed as a tool's answer is the tool's: another with text may be a reply
    outcomes, problems = _grade(tmp_path, CALL, {"type": "final_result", "output": {"type": "text", "text": "Hi"}},
                                REPLY)
    assert outcomes == ["error", "error"]
    assert any("unread-text" in problem for problem in problems)
