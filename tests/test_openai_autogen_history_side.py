"""AutoGen keeps a chat's history from one agent's side (``ChatResult.chat_history`` is
the side of the agent that started the chat): that agent's own turns are "assistant",
the other agent's "user", and a turn that makes calls is "assistant" whoever made it.
When the agent that answers the calls (the ``name`` of AutoGen's tool message, which
holds its ``tool_responses``) also speaks as "assistant", the history is kept from the
executor's side: its task is an "assistant" turn and the agent's replies are "user"
turns. The importer does not swap them back, so the response and the harness text are
unknown (``message-sides``, ``harness-may-be-missing``), never the task read as a reply
nor a reply as the eval prompt. A history kept from the agent's own side reads as it is."""

from __future__ import annotations

from pathlib import Path

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: count(calls) == 1\n'
         'expect 2: not response contains "Get the price"\n'
         'expect 3: exactly 1 harness where .text contains "42 dollars"\n')


def _call() -> dict:
    return {"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_price",
                                                                           "arguments": '{"ticker": "NVDA"}'}}],
            "content": None, "role": "assistant"}


def _answer(executor: str) -> dict:
    return {"content": "42", "tool_responses": [{"tool_call_id": "call_1", "role": "tool", "content": "42"}],
            "role": "tool", "name": executor}


def _problems(problems: list[str]) -> set[str]:
    return {code for code in ("message-sides", "harness-may-be-missing") if any(f"[{code}]" in p for p in problems)}


def test_a_history_kept_by_the_agent_that_ran_the_calls_leaves_response_and_harness_unknown(tmp_path: Path):
    history = [{"content": "Get the price of NVDA.", "role": "assistant", "name": "user_proxy"}, _call(),
               _answer("user_proxy"), {"content": "It is 42 dollars. TERMINATE", "role": "user", "name": "chatbot"}]
    verdicts, problems = graded(RULES, json_file(tmp_path / "history.json", history))
    assert verdicts == ["pass", "error", "error"]
    assert _problems(problems) == {"message-sides", "harness-may-be-missing"}


def test_the_executor_speaking_after_its_answers_shows_it_too(tmp_path: Path):
    history = [{"content": "Get the price of NVDA.", "role": "user", "name": "admin"}, _call(),
               _answer("user_proxy"), {"content": "It is 42 dollars.", "role": "user", "name": "chatbot"},
               {"content": "Get the price of NVDA again.", "role": "assistant", "name": "user_proxy"}]
    verdicts, problems = graded(RULES, json_file(tmp_path / "history.json", history))
    assert verdicts == ["pass", "error", "error"]
    assert _problems(problems) == {"message-sides", "harness-may-be-missing"}


def test_a_history_kept_by_the_agent_that_made_the_calls_reads_as_it_is(tmp_path: Path):
    history = [{"content": "Get the price of NVDA.", "role": "user", "name": "user_proxy"}, _call(),
               _answer("user_proxy"), {"content": "It is 42 dollars. TERMINATE", "role": "assistant",
                                       "name": "chatbot"}]
    verdicts, problems = graded(RULES.replace("42 dollars", "Get the price"), json_file(tmp_path / "h.json", history))
    assert verdicts == ["pass", "pass", "pass"]
    assert _problems(problems) == set()
