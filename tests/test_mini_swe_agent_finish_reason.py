"""mini-swe-agent 2 keeps, under each assistant message's ``extra.response``, the chat
completion the model gave (as LiteLLM returns it): its one choice says how the model
stopped (``finish_reason``), read as the message's own (tests/test_openai_finish_reason.py).
Probed on the real trajectory of tests/fixtures/real/openai/mini-swe-agent-2-tool-calls,
whose completions all end in ``tool_calls``, each field changed one at a time. Before, the
completion kept there was not read, and a message the model stopped writing at its token
limit read as a finished one, with nothing said. (A call the message no longer holds was
already found in the completion's own copy of the message; it is now said there too.)"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import referee

REAL = Path(__file__).parent / "fixtures" / "real" / "openai" / "mini-swe-agent-2-tool-calls" / \
    "astropy__astropy-12907.traj.json"
TRAJECTORY = json.loads(REAL.read_text(encoding="utf-8"))
RULES = """eval 1
expect 1: count(calls) == 3
expect 2: count(calls) == 4
"""


def _graded(tmp_path: Path, trajectory: dict) -> tuple[list[str], list[str]]:
    source = tmp_path / "run.traj.json"
    source.write_text(json.dumps(trajectory), encoding="utf-8")
    (result,) = referee.grade(RULES, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


def _changed(index: int, reason: str, drop_calls: bool = False) -> dict:
    """The trajectory with message ``index``'s kept completion ending in ``reason``."""
    trajectory = copy.deepcopy(TRAJECTORY)
    message = trajectory["messages"][index]
    message["extra"]["response"]["choices"][0]["finish_reason"] = reason
    if drop_calls:
        message["tool_calls"] = None
    return trajectory


def test_the_real_trajectory_says_nothing_of_how_the_model_stopped(tmp_path: Path):
    outcomes, problems = _graded(tmp_path, TRAJECTORY)
    assert outcomes == ["fail", "pass"]
    assert not [p for p in problems if "incomplete" in p or "finish_reason" in p]


def test_a_completion_cut_at_its_token_limit_is_said(tmp_path: Path):
    outcomes, problems = _graded(tmp_path, _changed(6, "length"))
    assert outcomes == ["fail", "pass"]
    assert [p for p in problems if "incomplete" in p and "message 7" in p and "'length'" in p]


def test_a_call_the_message_no_longer_holds_leaves_the_calls_unknown(tmp_path: Path):
    outcomes, problems = _graded(tmp_path, _changed(8, "tool_calls", drop_calls=True))
    assert outcomes == ["error", "error"]
    assert [p for p in problems if "calls-may-be-missing" in p and "message 9" in p]


def test_a_response_of_several_choices_says_nothing(tmp_path: Path):
    trajectory = _changed(6, "length")
    choices = trajectory["messages"][6]["extra"]["response"]["choices"]
    choices.append(copy.deepcopy(choices[0]))
    _, problems = _graded(tmp_path, trajectory)
    assert not [p for p in problems if "incomplete" in p]
