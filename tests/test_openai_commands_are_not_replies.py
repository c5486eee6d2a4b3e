"""An assistant message that a harness's answer follows (mini-swe-agent 1's
``<returncode>0</returncode>``, OpenHands' ``EXECUTION RESULT of [tool]:``) held a
command the harness took from its text and ran: its words were sent with that
command, a note, not a reply. The response is the replies no such answer follows
(mini-swe-agent's last message, the one that submits)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

ANSWERS = {
    "mini-swe-agent-v1": "<returncode>0</returncode>\n<output>\nx.tmp\n</output>",
    "mini-swe-agent-v1-in-a-part": [{"type": "text", "text": "<returncode>0</returncode>\n<output>\nx.tmp\n</output>"}],
    "openhands": "EXECUTION RESULT of [execute_bash]:\nx.tmp\n[Command finished with exit code 0]",
}
LAST = "THOUGHT: The temp files are gone.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"


def _messages(answer) -> list[dict]:
    return [{"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
            {"role": "user", "content": "Please solve this issue: remove the temp files"},
            {"role": "assistant", "content": "THOUGHT: Let me list them first.\n\n```bash\nls /tmp\n```"},
            {"role": "user", "content": answer},
            {"role": "assistant", "content": "THOUGHT: I will delete x.tmp.\n\n```bash\nrm /tmp/x.tmp\n```"},
            {"role": "user", "content": answer},
            {"role": "assistant", "content": LAST}]


def _grade(tmp_path: Path, rules: str, messages: list) -> list[str]:
    source = tmp_path / "run.traj.json"
    source.write_text(json.dumps({"messages": messages, "trajectory_format": "mini-swe-agent-1"}), encoding="utf-8")
    result, = referee.grade(rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


@pytest.mark.parametrize("answer", ANSWERS.values(), ids=ANSWERS.keys())
def test_a_message_a_harness_answer_follows_is_no_reply(tmp_path: Path, answer):
    rules = ('eval 1\nexpect 1: not response contains "rm /tmp"\nexpect 2: not response contains "list them"\n'
             'expect 3: response contains "The temp files are gone."\n')
    assert _grade(tmp_path, rules, _messages(answer)) == ["pass", "pass", "pass"]


def test_the_command_messages_are_notes_sent_with_a_call(tmp_path: Path):
    source = tmp_path / "run.traj.json"
    source.write_text(json.dumps({"messages": _messages(ANSWERS["mini-swe-agent-v1"])}), encoding="utf-8")
    (found,) = conversations("openai", [source])
    titles = [entry.title for entry in found.entries if isinstance(entry, Text) and entry.kind == "agent"]
    assert titles == ["text sent with a tool call", "text sent with a tool call", "reply"]
    assert [reply.text for reply in found.response] == [LAST]


def test_a_message_a_format_error_follows_stays_a_reply(tmp_path: Path):
    # mini-swe-agent runs no command when the message holds none (or two): its answer
    # is a format error, which is no answer to a command, and the message is a reply
    messages = [{"role": "user", "content": "What is 2 + 2?"},
                {"role": "assistant", "content": "It is 4."},
                {"role": "user", "content": "Please always provide EXACTLY ONE action in triple backticks, found 0 actions."},
                {"role": "assistant", "content": "THOUGHT: Done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"}]
    assert _grade(tmp_path, 'eval 1\nexpect 1: response contains "It is 4."\n', messages) == ["pass"]


def test_a_command_after_a_call_written_as_text_is_no_reply_after_it(tmp_path: Path):
    # the call written as text (mini-swe-agent 2's block) is followed by no reply, only
    # by a command a harness answer shows: the response is unknown, as when nothing follows
    answer = ANSWERS["mini-swe-agent-v1"]
    messages = [{"role": "user", "content": "Please remove the temp files"},
                {"role": "assistant", "content": "THOUGHT: Let me look.\n\n```mswea_bash_command\nls /tmp\n```"},
                {"role": "user", "content": answer},
                {"role": "assistant", "content": "THOUGHT: I will delete x.tmp.\n\n```bash\nrm /tmp/x.tmp\n```"},
                {"role": "user", "content": answer}]
    assert _grade(tmp_path, 'eval 1\nexpect 1: not response contains "rm"\n', messages) == ["error"]
