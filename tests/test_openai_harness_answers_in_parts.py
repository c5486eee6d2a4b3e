"""A harness's answer to a command it took from the agent's text (mini-swe-agent's
``<returncode>0</returncode>``) given in a user turn whose content is not one string:
one part given as an object, or a list of parts where the answer is not the first
text. Every text the turn holds, read or not, is looked at: the run's calls are
incomplete, and a check over them is an ERROR, never a pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import mini_swe_agent_run, outcomes

RULES = 'eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
ANSWER = "<returncode>0</returncode>\n<output>\n</output>"
CONTENTS = {
    "one-part-object": {"type": "text", "text": ANSWER},
    "text-given-as-value": {"type": "text", "text": {"value": ANSWER}},
    "after-another-part": [{"type": "text", "text": "Observation:"}, {"type": "text", "text": ANSWER}],
    "part-of-another-type": [{"type": "tool_output", "text": ANSWER}],
}


def _grade(tmp_path: Path, answer) -> list[str]:
    source = mini_swe_agent_run(tmp_path / "run.traj.json", "Please remove the temp files", "rm -rf /tmp/x", answer,
                                "The temp files are gone.")
    return outcomes(RULES, source)


@pytest.mark.parametrize("answer", CONTENTS.values(), ids=CONTENTS.keys())
def test_an_answer_in_parts_leaves_the_runs_calls_unknown(tmp_path: Path, answer):
    assert _grade(tmp_path, answer) == ["error", "error"]


def test_parts_that_only_mention_a_return_code_change_nothing(tmp_path: Path):
    answer = [{"type": "text", "text": "What does <returncode>0</returncode> mean?"}]
    assert _grade(tmp_path, answer) == ["pass", "pass"]
