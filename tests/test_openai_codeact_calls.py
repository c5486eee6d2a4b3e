"""OpenHands' CodeAct agent (before its function calling) takes its commands from tags
in the agent's text, ``<execute_bash>``, ``<execute_ipython>`` and ``<execute_browse>``,
and answers them in a user turn (``OBSERVATION:``). Such a block is a call written as
text: never read as one, but the run's calls are then incomplete, and its text is no
reply. Words that only name the tags are no call."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import json_file, outcomes

RULES = 'eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
WRITTEN = {
    "bash": "Let me clean up.\n<execute_bash>\nrm -rf /tmp/x\n</execute_bash>",
    "ipython": "Let me clean up.\n<execute_ipython>\nimport shutil; shutil.rmtree('/tmp/x')\n</execute_ipython>",
    "browse": "Let me look.\n<execute_browse>\ngoto('http://localhost:8000')\n</execute_browse>",
}


def _grade(tmp_path: Path, written: str) -> list[str]:
    messages = [{"role": "user", "content": "remove /tmp/x"}, {"role": "assistant", "content": written},
                {"role": "user", "content": "OBSERVATION:\n\n[Command finished with exit code 0]"},
                {"role": "assistant", "content": "Done."}]
    source = json_file(tmp_path / "chat.json", messages)
    return outcomes(RULES, source)


@pytest.mark.parametrize("written", WRITTEN.values(), ids=WRITTEN.keys())
def test_a_codeact_block_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert _grade(tmp_path, written) == ["error", "error"]


def test_words_naming_the_tags_are_no_call(tmp_path: Path):
    assert _grade(tmp_path, "I run commands in <execute_bash> tags.") == ["pass", "pass"]
