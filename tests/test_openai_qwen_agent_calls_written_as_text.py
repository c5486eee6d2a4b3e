"""Qwen-Agent's text format (Qwen 1.5 and 2 served without function calling) writes a
call as a ``✿FUNCTION✿: name`` line and a ``✿ARGS✿: {...}`` line in the assistant's
text, which the agent parses and runs: never read as a call, but the run's calls are
unknown (a negative check is an ERROR, never a pass) and the text is a note. A line
naming the marker alone is no call."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import call_in_text_outcomes

WRITTEN = {
    "after-words": 'I will delete it.\n✿FUNCTION✿: bash\n✿ARGS✿: {"command": "rm -rf /tmp/x"}',
    "alone": '✿FUNCTION✿: bash\n✿ARGS✿: {"command": "rm -rf /tmp/x"}\n✿RESULT✿: done',
}


@pytest.mark.parametrize("written", WRITTEN.values(), ids=WRITTEN.keys())
def test_a_qwen_agent_call_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert call_in_text_outcomes(tmp_path, written) == ["error", "error", "pass"]


def test_a_marker_named_alone_is_a_reply(tmp_path: Path):
    words = "Qwen-Agent marks a call with ✿FUNCTION✿: and its result with ✿RESULT✿."
    assert call_in_text_outcomes(tmp_path, words, 'eval 1\nexpect 1: count(calls) == 0\n') == ["pass"]
