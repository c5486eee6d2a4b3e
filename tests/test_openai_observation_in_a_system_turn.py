"""A ReAct harness that answers a call in a system turn (``Observation: ...`` written as
the system's, not the user's) answers it all the same: after a message that wrote a
ReAct call, such a turn shows the call was run, so the run's calls are unknown (a check
over them is an ERROR, never a pass). After no call, it is harness text as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import json_file, outcomes

RULES = ('eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
         'expect 3: response contains "clean"\n')


def _grade(tmp_path: Path, written: str, role: str) -> list[str]:
    messages = [{"role": "user", "content": "clean up /tmp/x"}, {"role": "assistant", "content": written},
                {"role": role, "content": "Observation: done"}, {"role": "assistant", "content": "Final Answer: clean."}]
    source = json_file(tmp_path / "chat.json", messages)
    return outcomes(RULES, source)


@pytest.mark.parametrize("role", ["system", "developer"])
def test_an_observation_in_a_system_turn_answers_the_action(tmp_path: Path, role: str):
    assert _grade(tmp_path, "Thought: delete it\nAction: bash\nAction Input: rm -rf /tmp/x", role) == [
        "error", "error", "pass"]


@pytest.mark.parametrize("role", ["system", "developer"])
def test_an_observation_in_a_system_turn_after_no_action_changes_nothing(tmp_path: Path, role: str):
    assert _grade(tmp_path, "Let me think.", role) == ["pass", "pass", "pass"]
