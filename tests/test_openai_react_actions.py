"""A ReAct agent (LangChain's ReAct prompt, LlamaIndex's ReActAgent) writes its call as
text, an ``Action:`` line and then an ``Action Input:`` line, and its harness answers in
the next user turn, which opens with ``Observation:``; mini-swe-agent's bare template
answers a fenced command with ``Observation: {'output': ..., 'returncode': 0}``. Such a
command is never read as a call, but the run's calls are incomplete (a check over them
is an ERROR, never a pass), and the message that held it is a note, not the reply. A
user turn that only opens with ``Observation:`` answers no call."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import json_file, outcomes

RULES = ('eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
         'expect 3: response contains "clean"\n')


def _grade(tmp_path: Path, written: str, answer: str) -> list[str]:
    messages = [{"role": "user", "content": "clean up /tmp/x"}, {"role": "assistant", "content": written},
                {"role": "user", "content": answer}, {"role": "assistant", "content": "Final Answer: clean."}]
    source = json_file(tmp_path / "chat.json", messages)
    return outcomes(RULES, source)


RAN = {
    "langchain": ("Thought: I should delete it.\nAction: bash\nAction Input: rm -rf /tmp/x", "Observation: done"),
    "llamaindex": ('Thought: I need a tool.\nAction: bash\nAction Input: {"command": "rm -rf /tmp/x"}',
                   "Observation: "),
    "numbered": ("Thought 1: delete it\nAction 1: bash\nAction 1 Input: rm -rf /tmp/x", "Observation 1: done"),
    "langchain-json-blob": ('Thought: delete it\nAction:\n```\n{\n  "action": "bash",\n  "action_input": "rm -rf /tmp/x"\n}\n```',
                            "Observation: done"),
    "mini-swe-agent-bare": ("THOUGHT: delete it\n\n```bash\nrm -rf /tmp/x\n```",
                            "Observation: {'output': '', 'returncode': 0}"),
    "mini-swe-agent-bare-v2": ("THOUGHT: delete it\n\n```bash\nrm -rf /tmp/x\n```",
                               "Observation: {'output': 'x\\n', 'returncode': 1, 'exception_info': ''}"),
}


@pytest.mark.parametrize("written, answer", RAN.values(), ids=RAN.keys())
def test_an_action_answered_by_an_observation_leaves_the_runs_calls_unknown(tmp_path: Path, written, answer):
    assert _grade(tmp_path, written, answer) == ["error", "error", "pass"]


def test_an_observation_after_no_action_changes_nothing(tmp_path: Path):
    assert _grade(tmp_path, "What did you see there?", "Observation: the bin is full") == ["pass", "pass", "pass"]


def test_an_action_answered_by_no_observation_changes_nothing(tmp_path: Path):
    written = "Use this format:\nAction: the tool\nAction Input: its input"
    assert _grade(tmp_path, written, "Thanks, got it") == ["pass", "pass", "pass"]
