"""AutoGen (0.2's ``ConversableAgent``, and AG2 after it) answers an assistant's
``tool_calls`` with one message of role ``tool`` that holds each call's answer in
``tool_responses`` (``{"tool_call_id", "role": "tool", "content"}``, as its
``generate_tool_calls_reply`` builds it), its ``content`` those answers joined as
"Tool Call Id: ...", and no top-level ``tool_call_id``. Such a message was an orphan:
its calls stayed unanswered and every check on their returns errored. A message whose
responses name exactly the open calls' ids answers each of them; one that names
others (or none) stays an orphan, as before."""

from __future__ import annotations

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: first(calls to "get_time").return == "12:00:00"\n'
         'expect 2: first(calls to "echo").return contains "hello"\n'
         'expect 3: all calls have .status == "success"\nexpect 4: response contains "noon"\n')
CALLS = {"content": None, "role": "assistant", "tool_calls": [
    {"id": "call_1", "function": {"arguments": "{}", "name": "get_time"}, "type": "function"},
    {"id": "call_2", "function": {"arguments": '{"text": "hello world"}', "name": "echo"}, "type": "function"}]}


def _answer(*ids: str) -> dict:
    responses = [{"tool_call_id": call_id, "role": "tool", "content": text}
                 for call_id, text in zip(ids, ("12:00:00", "hello world"))]
    joined = "\n\n".join(f"Tool Call Id: {r['tool_call_id']}\n{r['content']}" for r in responses)
    return {"content": joined, "tool_responses": responses, "role": "tool", "name": "user_proxy"}


def _grade(tmp_path, answer: dict) -> tuple[list[str], list[str]]:
    messages = [{"content": "What time is it?", "role": "user", "name": "user_proxy"}, CALLS, answer,
                {"content": "It is noon.", "role": "assistant", "name": "assistant"}]
    return graded(RULES, json_file(tmp_path / "autogen.json", messages, indent=1))


def test_tool_responses_answer_the_calls_they_name(tmp_path):
    outcomes, problems = _grade(tmp_path, _answer("call_1", "call_2"))
    assert outcomes == ["pass", "pass", "pass", "pass"]
    assert not any("orphan-result" in problem for problem in problems)


def test_tool_responses_naming_other_calls_stay_orphans(tmp_path):
    outcomes, problems = _grade(tmp_path, _answer("call_1", "call_9"))
    # the echo call read was never answered: not a success, whatever call_9 was
    assert outcomes[:3] == ["error", "error", "fail"]
    assert any("orphan-result" in problem for problem in problems)
