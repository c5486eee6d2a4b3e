"""A SWE-agent ``.traj`` run with ``put_demos_in_history`` keeps a demonstration in its
history (the demo's own messages, each marked ``"is_demo": true``, a command among
them), while its ``trajectory`` holds the run's own steps alone. A step the trajectory
holds and the history does not (the run's last ``submit``) must still leave the run's
calls unknown: the demonstration's commands are not the run's, so they never make up
for it."""

from __future__ import annotations

import json
from pathlib import Path

import referee

FIXTURE = Path(__file__).parent / "fixtures/real/openai/swe-agent-test-repo/sweagenttestrepo-1c2844.history.json"
RULES = 'eval 1\nexpect 1: no calls to "submit"\nexpect 2: count(calls) == 4\n'

# What SWE-agent appends to the history for a demonstration (after the system message):
# the demo's turns as they were, each marked is_demo, its last command a submit.
DEMO = [
    {"role": "user", "content": "Here is a demonstration of how to correctly accomplish this task.",
     "agent": "main", "message_type": "observation", "is_demo": True},
    {"role": "assistant", "content": "The fix is in place, so I will submit.", "thought": "The fix is in place.",
     "action": "submit", "agent": "main", "message_type": "action", "is_demo": True,
     "tool_calls": [{"id": "call_demo", "type": "function", "function": {"name": "submit", "arguments": "{}"}}]},
    {"role": "tool", "content": "diff --git a/src/marshmallow/fields.py", "tool_call_ids": ["call_demo"],
     "agent": "main", "message_type": "observation", "is_demo": True},
]


def _traj(tmp_path: Path, demo: list[dict]) -> Path:
    history = json.loads(FIXTURE.read_text(encoding="utf-8"))
    steps = [{"action": m["action"], "observation": "", "response": m["content"], "thought": m["thought"]}
             for m in history if m.get("action")]
    steps.append({"action": "submit", "observation": "diff --git a/tests/missing_colon.py", "response": "",
                  "thought": ""})  # the run's last step, which its history does not show
    value = {"trajectory": steps, "history": history[:1] + demo + history[1:],
             "info": {"submission": "diff --git a/tests/missing_colon.py"}, "replay_config": "{}",
             "environment": "main"}
    path = tmp_path / "run.traj"
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
    return path


def _graded(path: Path) -> tuple[list[str], str]:
    (result,) = referee.grade(RULES, path, as_eval="1")
    return [item["outcome"] for item in result.expectations], "\n".join(result.grading["problems"])


def test_a_demonstration_s_command_does_not_stand_for_a_step_the_history_lacks(tmp_path: Path):
    outcomes, problems = _graded(_traj(tmp_path, DEMO))
    assert outcomes == ["error", "error"]
    assert "the trajectory holds 5 steps that ran a command, the history 4" in problems


def test_without_a_demonstration_the_same_step_is_missing_as_before(tmp_path: Path):
    outcomes, problems = _graded(_traj(tmp_path, []))
    assert outcomes == ["error", "error"]
    assert "the trajectory holds 5 steps that ran a command, the history 4" in problems
