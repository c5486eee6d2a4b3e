"""tau2-bench's telecom domain gives the user simulator tools of its own, on its phone
(tests/fixtures/real/openai/tau2-bench-telecom-user-device): it runs them in a user turn,
each call named on itself with ``"requestor": "user"``, and a ``tool`` message of the same
``id`` and ``"requestor": "user"`` answers each. They are the harness's steps, as the user's
words are: never calls of the agent's, nor calls that may be missing. Only that shape is
read so: a user turn holding any other call, or one call of another requestor, stays a call
where none is read, and an answer whose id names no call of the user's pairs with nothing."""

from __future__ import annotations

import json

import pytest

import referee

RULES = ('eval 1\nexpect 1: count(calls) == 1\nexpect 2: no calls to "toggle_data"\n'
         'expect 3: exactly 1 harness where .text contains "Mobile Data is now ON"\n'
         'expect 4: exactly 1 harness where .text contains "toggle_data"\n'
         'expect 5: response contains "all set"\n')


def _device_call(**beside) -> dict:
    return {"id": "call_u1", "name": "toggle_data", "arguments": {}, "requestor": "user", **beside}


def _messages(device_turn: dict, device_answer: dict) -> list[dict]:
    return [{"role": "user", "content": "My data is off."},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "toolu_1", "name": "get_customer_by_phone", "arguments": {"phone_number": "555"},
                 "requestor": "assistant"}]},
            {"id": "toolu_1", "role": "tool", "content": "{}", "requestor": "assistant", "error": False},
            {"role": "assistant", "content": "Please run toggle_data on your phone."},
            device_turn,
            device_answer,
            {"role": "user", "content": "Data is on now."},
            {"role": "assistant", "content": "You're all set!"}]


def _turn(*calls: dict, **beside) -> dict:
    return {"role": "user", "content": None, "tool_calls": list(calls), **beside}


def _answer(**beside) -> dict:
    return {"id": "call_u1", "role": "tool", "content": "Mobile Data is now ON.", "requestor": "user",
            "error": False, **beside}


def _grade(tmp_path, messages: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "simulation.json"
    source.write_text(json.dumps({"id": "s", "task_id": "t", "messages": messages}), encoding="utf-8")
    (result,) = referee.grade(RULES, source, as_eval="1")
    codes = sorted({p.split("warning[")[1].split("]")[0] for p in result.grading["problems"]})
    return [e["outcome"] for e in result.grading["expectations"]], codes


# the user simulator's completion, kept beside the turn: the same calls, as chat completions give them
ECHO = {"finish_reason": "tool_calls", "index": 0, "message": {"content": None, "role": "assistant", "tool_calls": [
    {"function": {"arguments": "{}", "name": "toggle_data"}, "id": "call_u1", "type": "function"}]}}


@pytest.mark.parametrize("beside", [{}, {"raw_data": ECHO}])
def test_the_users_own_tools_are_harness_steps(tmp_path, beside):
    outcomes, codes = _grade(tmp_path, _messages(_turn(_device_call(), **beside), _answer()))
    assert outcomes == ["pass"] * 5
    assert codes == []


ELSEWHERE = {
    # one call of the turn is asked for by the assistant: whose it is is not the user's to say
    "another-requestor": _turn(_device_call(), _device_call(id="call_u2", requestor="assistant")),
    "no-requestor": _turn({"id": "call_u1", "name": "toggle_data", "arguments": {}}),
    # words beside the calls, which tau2 never writes there: whether they are a request is not said
    "words-beside": _turn(_device_call(), content="Turning it on."),
    # a completion kept beside the turn that holds calls the turn does not
    "other-calls-beside": _turn(_device_call(), raw_data={"message": {"tool_calls": [
        {"function": {"arguments": "{}", "name": "reboot_device"}, "id": "call_u9", "type": "function"}]}}),
}


@pytest.mark.parametrize("turn", ELSEWHERE.values(), ids=ELSEWHERE.keys())
def test_a_user_turn_of_another_shape_holds_a_call_not_read(tmp_path, turn):
    outcomes, codes = _grade(tmp_path, _messages(turn, _answer()))
    assert outcomes[:2] == ["error", "error"]
    assert "calls-may-be-missing" in codes


def test_an_answer_for_no_call_of_the_users_pairs_with_nothing(tmp_path):
    outcomes, codes = _grade(tmp_path, _messages(_turn(_device_call()), _answer(id="call_u7")))
    assert outcomes[:2] == ["error", "error"]
    assert "orphan-result" in codes


def test_an_answer_to_a_call_of_the_users_that_holds_a_call_is_no_such_answer(tmp_path):
    # read as the harness's text, the call beside the answer was dropped without a word
    bash = {"id": "b", "type": "function", "function": {"name": "toggle_data", "arguments": "{}"}}
    outcomes, codes = _grade(tmp_path, _messages(_turn(_device_call()), _answer(tool_calls=[bash])))
    assert outcomes[:2] == ["error", "error"]
    assert "calls-may-be-missing" in codes
