"""An assistant message Claude Code writes in the model's place (model ``<synthetic>``,
often flagged ``isApiErrorMessage``: "API Error: 529 ...", "You've hit your session
limit", "No response requested.") holds no words of the agent: it is harness text,
never an agent note nor the reply, so a check on the response reads what the agent
said, or finds it said nothing."""

from __future__ import annotations

import json

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Call, Text

PROMPT = '{"type":"user","sessionId":"S1","uuid":"u0","message":{"role":"user","content":"Delete the build folder"}}'
CALL = ('{"type":"assistant","sessionId":"S1","uuid":"a0","message":{"id":"m0","model":"claude-opus-4-5-20251101",'
        '"role":"assistant","stop_reason":"tool_use","content":'
        '[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"rm -rf build"}}]}}')
ANSWER = ('{"type":"user","sessionId":"S1","uuid":"r0","message":{"role":"user","content":'
          '[{"type":"tool_result","tool_use_id":"t1","content":"","is_error":false}]}}')
REPLY = ('{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","model":"claude-opus-4-5-20251101",'
         '"role":"assistant","stop_reason":"end_turn","content":[{"type":"text","text":"The build folder is gone."}]}}')
RULES = ('eval 1\nexpect 1: response is not empty\nexpect 2: not response contains "Error"\n'
         'expect 3: exists harness where .text contains "API Error: 529"\n')


def _synthetic(text: str, flagged: bool = True) -> str:
    """An assistant record as Claude Code writes one for a failure of its own."""
    record = {"type": "assistant", "sessionId": "S1", "uuid": "a9",
              "message": {"id": "c0f1e2d3-0000-4000-8000-000000000001", "model": "<synthetic>", "role": "assistant",
                          "stop_reason": "stop_sequence", "type": "message",
                          "usage": {"input_tokens": 0, "output_tokens": 0},
                          "content": [{"type": "text", "text": text}]}}
    if flagged:
        record.update({"error": "server_error", "isApiErrorMessage": True, "apiErrorStatus": 529})
    return json.dumps(record)


OVERLOADED = 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'


def _session(tmp_path, *lines: str):
    session = tmp_path / "s.jsonl"
    session.write_text("\n".join((PROMPT, CALL, ANSWER) + lines) + "\n", encoding="utf-8")
    return session


def _outcomes(tmp_path, *lines: str) -> list[str]:
    grading = referee.grade(RULES, _session(tmp_path, *lines), as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]]


def test_an_api_error_ending_the_session_is_no_reply(tmp_path):
    # the agent said nothing after its call: the error Claude Code wrote is no response
    assert _outcomes(tmp_path, _synthetic(OVERLOADED)) == ["fail", "pass", "pass"]


def test_an_api_error_is_harness_text_not_an_agent_note(tmp_path):
    (conversation,) = conversations("claude-code", [_session(tmp_path, _synthetic(OVERLOADED))])
    texts = [e for e in conversation.entries if isinstance(e, Text)]
    assert [(t.kind, t.text) for t in texts if t.text == OVERLOADED] == [("system", OVERLOADED)]
    assert conversation.response == ()
    assert [c.tool for c in conversation.entries if isinstance(c, Call)] == ["Bash"]


def test_the_reply_before_an_api_error_stays_the_response(tmp_path):
    assert _outcomes(tmp_path, REPLY, _synthetic(OVERLOADED)) == ["pass", "pass", "pass"]


def test_a_synthetic_message_without_the_flag_is_harness_text_too(tmp_path):
    (conversation,) = conversations("claude-code", [_session(tmp_path, REPLY,
                                                             _synthetic("No response requested.", False))])
    assert [t.text for t in conversation.response] == ["The build folder is gone."]
    assert not any(isinstance(e, Text) and e.kind == "agent" and e.text == "No response requested."
                   for e in conversation.entries)


QUESTION = '{"type":"user","sessionId":"S1","uuid":"u1","message":{"role":"user","content":"And the cache?"}}'
CALL_RULES = 'eval 1\nexpect 1: exactly 1 calls to "Bash"\nexpect 2: no calls to "Write"\nexpect 3: response is not empty\n'


def _after_question(tmp_path, *lines: str) -> tuple[list[str], list[str]]:
    grading = referee.grade(CALL_RULES, _session(tmp_path, REPLY, QUESTION, *lines), as_eval="1")[0].grading
    codes = sorted({p.split("warning[")[1].split("]")[0] for p in grading["problems"]})
    return [e["outcome"] for e in grading["expectations"]], codes


def test_a_request_an_api_error_answered_in_the_models_place_ended_that_turn(tmp_path):
    """Claude Code wrote the API error in the model's place right after the request (as
    Claude Code 1.0.35 writes a lost connection, unflagged: tests/fixtures/real/claude-code/
    mcp-thinking-api-error): the turn ended there, with no call and no words of the agent.
    Nothing is cut: the calls read are all there are; the request has no reply, so the
    response is unknown, as for any request left unanswered."""
    for error in (_synthetic(OVERLOADED), _synthetic("API Error: Connection error.", False)):
        outcomes, codes = _after_question(tmp_path, error)
        assert outcomes == ["pass", "pass", "error"], error
        assert "no-reply" in codes and "calls-may-be-missing" not in codes, error


def test_a_request_no_api_error_answered_may_hide_calls_still(tmp_path):
    # the session ends on the request, or on Claude Code's words that are no API error
    for lines in ((), (_synthetic("No response requested.", False),)):
        outcomes, codes = _after_question(tmp_path, *lines)
        assert outcomes == ["error", "error", "error"]
        assert "calls-may-be-missing" in codes
