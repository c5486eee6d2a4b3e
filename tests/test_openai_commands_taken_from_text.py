"""A harness that runs the commands it takes from the agent's text (mini-swe-agent's
```bash or ```mswea_bash_command block, answered in a user turn with
``<returncode>0</returncode>``; OpenHands' ``EXECUTION RESULT of [execute_bash]:``)
keeps a message list with no tool call in it. Those commands are never read as calls,
but the run's calls are incomplete: a check over them is an ERROR, never a pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'


def _grade(tmp_path: Path, messages: list, rules: str = RULES) -> list[str]:
    source = tmp_path / "run.traj.json"
    source.write_text(json.dumps({"messages": messages, "trajectory_format": "mini-swe-agent-1"}), encoding="utf-8")
    result, = referee.grade(rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


def _run(action: str, answer: str) -> list[dict]:
    return [{"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
            {"role": "user", "content": "Please solve this issue: remove the temp files"},
            {"role": "assistant", "content": f"THOUGHT: I will delete them.\n\n{action}"},
            {"role": "user", "content": answer},
            {"role": "assistant", "content": "THOUGHT: Done.\n\n```bash\necho MINI_SWE_AGENT_FINAL_OUTPUT\n```"}]


ANSWERS = {
    "mini-swe-agent-v1": ("```bash\nrm -rf /tmp/x\n```", "<returncode>0</returncode>\n<output>\n</output>"),
    "mini-swe-agent-v2": ("```mswea_bash_command\nrm -rf /tmp/x\n```", "ok"),
    "openhands": ("```\nrm -rf /tmp/x\n```", "EXECUTION RESULT of [execute_bash]:\n\n[Command finished with exit code 0]"),
}


@pytest.mark.parametrize("action, answer", ANSWERS.values(), ids=ANSWERS.keys())
def test_commands_a_harness_took_from_the_text_leave_the_runs_calls_unknown(tmp_path: Path, action, answer):
    assert _grade(tmp_path, _run(action, answer)) == ["error", "error"]


def test_a_user_turn_that_only_mentions_a_return_code_changes_nothing(tmp_path: Path):
    messages = [{"role": "user", "content": "What does <returncode> mean in your logs?"},
                {"role": "assistant", "content": "It is the exit status of the command."}]
    assert _grade(tmp_path, messages) == ["pass", "pass"]
