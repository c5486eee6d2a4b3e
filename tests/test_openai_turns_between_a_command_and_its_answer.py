"""A user or system turn that answers nothing (the user's words, a harness's reminder)
between a command written as text and the harness's answer to it: the answer still
answers that command. A ReAct ``Observation:`` so answered leaves the run's calls
unknown (a negative check over them is an ERROR, never a pass), and the message that
wrote the command is a note sent with a call, not part of the response."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from openai_chat import json_file, outcomes

RULES = ('eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
         'expect 3: response contains "clean"\nexpect 4: not response contains "rm"\n')

COMMANDS = {
    "react": ("Thought: delete it\nAction: bash\nAction Input: rm -rf /tmp/x", "Observation: done"),
    "mini-swe-agent": ("THOUGHT: delete it\n\n```bash\nrm -rf /tmp/x\n```", "<returncode>0</returncode>\n"),
}
BETWEEN = {
    "a-user-turn": [{"role": "user", "content": "hurry up"}],
    "a-system-turn": [{"role": "system", "content": "You have 3 steps left."}],
    "an-empty-turn-and-a-user-turn": [{"role": "user", "content": ""}, {"role": "user", "content": "go on"}],
}


def _grade(tmp_path: Path, command: str, between: list, answer: str) -> list[str]:
    messages = ([{"role": "user", "content": "clean up /tmp/x"}, {"role": "assistant", "content": command}]
                + between + [{"role": "user", "content": answer}, {"role": "assistant", "content": "All clean."}])
    source = json_file(tmp_path / "chat.json", messages)
    return outcomes(RULES, source)


@pytest.mark.parametrize("between", BETWEEN.values(), ids=BETWEEN.keys())
@pytest.mark.parametrize("command, answer", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_turn_between_leaves_the_answer_to_the_command(tmp_path: Path, command: str, answer: str, between: list):
    assert _grade(tmp_path, command, between, answer) == ["error", "error", "pass", "pass"]


def test_an_assistant_message_between_ends_the_wait(tmp_path: Path):
    written = "Use this layout:\nAction: the tool\nAction Input: its input"
    between = [{"role": "user", "content": "ok"}, {"role": "assistant", "content": "Anything else?"}]
    assert _grade(tmp_path, written, between, "Observation: the bin is full") == ["pass", "pass", "pass", "pass"]


def test_a_call_item_after_a_user_turn_leaves_the_reply_before_it_a_reply(tmp_path: Path):
    # a Responses API list: the reply the user saw, the user's next turn, then the call
    # of the next response, which the reply was not sent with
    def said(text: str) -> dict:
        return {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}
    messages = [{"role": "user", "content": "clean up /tmp/x"}, said("Shall I rm it?"),
                {"role": "user", "content": "yes"},
                {"type": "function_call", "call_id": "c1", "name": "bash", "arguments": '{"command": "ls"}'},
                {"type": "function_call_output", "call_id": "c1", "output": "x"}, said("All clean.")]
    source = json_file(tmp_path / "chat.json", messages)
    result, = referee.grade('eval 1\nexpect 1: not response contains "rm"\n', source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail"]
