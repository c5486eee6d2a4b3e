"""A chat-completions request logged as it was sent (its ``model``, and the ``tools`` it
offered or a sampling parameter, beside its ``messages``) asks for a completion: when
none is logged beside it, the model's next step is not in the record. A request that
ends where the model speaks next, on a user's turn or with the agent at work (a tool's
answer), leaves the calls that completion may make unknown (``calls-may-be-missing``):
no check over the run's calls passes on the calls the request holds. Built on the real
requests ellmer recorded (``fixtures/real/openai/ellmer-logged-requests``): the
completion of the first made two calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

REAL = Path(__file__).parent / "fixtures" / "real" / "openai" / "ellmer-logged-requests"
FIRST = json.loads((REAL / "first-request.json").read_text(encoding="utf-8"))
THIRD = json.loads((REAL / "third-request.json").read_text(encoding="utf-8"))
RULES = 'eval 1\nexpect 1: no calls to "current_month"\nexpect 2: count(calls) <= 2\n'


def _grade(tmp_path: Path, value: dict) -> list[str]:
    source = tmp_path / "request.json"
    source.write_text(json.dumps(value), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


def test_a_request_that_ends_on_the_users_turn_leaves_the_calls_unknown(tmp_path: Path):
    assert _grade(tmp_path, FIRST) == ["error", "error"]


def test_a_request_that_ends_with_the_agent_at_work_leaves_the_calls_unknown(tmp_path: Path):
    at_work = {**THIRD, "messages": THIRD["messages"][:5]}  # ellmer's second request: the calls' answers last
    # its current_month call was made, whatever the completion made next
    assert _grade(tmp_path, at_work) == ["fail", "error"]


def test_a_completion_logged_beside_the_request_with_no_call_leaves_the_calls_known(tmp_path: Path):
    reply = {"index": 0, "message": {"role": "assistant", "content": "It is February.", "refusal": None},
             "finish_reason": "stop"}
    assert _grade(tmp_path, {**THIRD, "choices": [reply]}) == ["fail", "pass"]


@pytest.mark.parametrize("kept", ["messages", "model"])
def test_messages_saved_without_a_request_around_them_read_as_before(tmp_path: Path, kept: str):
    """A list under ``messages`` alone, or beside a model's name alone (a saved chat),
    holds no request: the run ends where it ends."""
    value = {key: THIRD[key] for key in ("messages", kept)}
    assert _grade(tmp_path, value) == ["fail", "pass"]


def test_a_request_that_ends_on_the_models_own_words_reads_as_before(tmp_path: Path):
    prefilled = {**THIRD, "messages": THIRD["messages"][:6]}  # its last message the assistant's reply
    assert _grade(tmp_path, prefilled) == ["fail", "pass"]
