"""What an assistant message's completion says of how the model stopped (``finish_reason``, on
the message or on the completion kept beside it, tau2-bench's ``raw_data``), probed on the real
LangGraph run of tests/fixtures/real/openai/langgraph-weather:

- ``length`` or ``content_filter``: the model stopped short; its words are read as they were
  given (what the user saw), and the run says so (``incomplete``), as for a Responses API
  ``message`` item marked ``incomplete``. Before, nothing was said.
- ``tool_calls`` (or ``function_call``) on a message that holds no call: the model made a call
  the record does not hold, so the run's calls are unknown and the message's words were sent
  with it. Before, they were the reply, and ``no calls with status error`` passed on a run
  whose last call was never seen.
"""

from __future__ import annotations

import json
from pathlib import Path

import referee

REAL = Path(__file__).parent / "fixtures" / "real" / "openai" / "langgraph-weather" / "weather_sf_and_nyc.json"
MESSAGES = json.loads(REAL.read_text(encoding="utf-8"))
RULES = """eval 1
expect 1: not response contains "sunny"
expect 2: no calls with status error
expect 3: exactly 2 calls to "_find_weather"
"""


def _graded(tmp_path: Path, messages: list) -> tuple[list[str], list[str]]:
    source = tmp_path / "run.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    (result,) = referee.grade(RULES, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


def _last(**members) -> list:
    return MESSAGES[:-1] + [MESSAGES[-1] | members]


def test_the_real_run_ends_on_its_reply():
    outcomes, problems = _graded_real()
    assert outcomes == ["fail", "pass", "pass"]
    assert not [p for p in problems if "incomplete" in p]


def _graded_real() -> tuple[list[str], list[str]]:
    (result,) = referee.grade(RULES, REAL, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


def test_a_reply_cut_at_the_token_limit_is_read_as_given_and_said(tmp_path):
    cut = "The weather in New York City is currently 90 degr"
    outcomes, problems = _graded(tmp_path, _last(content=cut, finish_reason="length"))
    assert outcomes == ["pass", "pass", "pass"]
    (said,) = [p for p in problems if "warning[incomplete]" in p]
    assert "finish_reason 'length'" in said


def test_a_completion_kept_beside_the_message_says_it_too(tmp_path):
    raw = {"finish_reason": "content_filter", "index": 0, "message": {"role": "assistant"}}
    _, problems = _graded(tmp_path, _last(raw_data=raw))
    assert [p for p in problems if "warning[incomplete]" in p]


def test_a_message_that_ended_in_a_call_it_does_not_hold_leaves_the_calls_unknown(tmp_path):
    outcomes, problems = _graded(tmp_path, _last(content="Let me look at Boston too.", finish_reason="tool_calls"))
    # before: "pass", "pass", "pass": the words were the reply and the calls read were all
    assert outcomes == ["error", "error", "error"]
    assert any("calls-may-be-missing" in p and "finish_reason 'tool_calls'" in p for p in problems)


def test_a_message_that_holds_the_call_its_completion_names_is_read_as_it_is(tmp_path):
    call = MESSAGES[5] | {"finish_reason": "tool_calls"}
    outcomes, problems = _graded(tmp_path, MESSAGES[:5] + [call] + MESSAGES[6:])
    assert outcomes == ["fail", "pass", "pass"]
    assert not [p for p in problems if "calls-may-be-missing" in p]
