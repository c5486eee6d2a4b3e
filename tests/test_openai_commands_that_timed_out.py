"""mini-swe-agent answers a command it took from the agent's text and ran in shapes
other than one opening with ``<returncode>N</returncode>``: a command that timed out
(``The last command <command>...</command> timed out and has been killed.``, its
timeout template), or an exception the environment met, said before the return code
(``<exception>...</exception>`` then ``<returncode>-1</returncode>``, as its version 2
observation template writes it). The command ran all the same: the run's calls are
incomplete, and the message that held it is no reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import mini_swe_agent_run, outcomes

RULES = ('eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
         'expect 3: not response contains "sleep"\n')
ANSWERS = {
    "timeout": "The last command <command>rm -rf /tmp/x && sleep 1000</command> timed out and has been killed.\n"
               "The output of the command was:\n <output>\n\n</output>\n"
               "Please try another command and make sure to avoid those requiring interactive input.",
    "exception": "<exception>An error occurred while executing the command: timed out</exception>\n"
                 "<returncode>-1</returncode>\n<output>\n</output>",
}


def _grade(tmp_path: Path, answer: str) -> list[str]:
    source = mini_swe_agent_run(tmp_path / "run.traj.json", "Please solve this issue: remove the temp files",
                                "rm -rf /tmp/x && sleep 1000", answer,
                                "THOUGHT: Done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```")
    return outcomes(RULES, source)


@pytest.mark.parametrize("answer", ANSWERS.values(), ids=ANSWERS.keys())
def test_a_command_answered_otherwise_was_run_all_the_same(tmp_path: Path, answer: str):
    assert _grade(tmp_path, answer) == ["error", "error", "pass"]


def test_words_about_a_timeout_are_no_answer(tmp_path: Path):
    assert _grade(tmp_path, "The last command timed out, please use <command> tags.") == ["pass", "pass", "fail"]
