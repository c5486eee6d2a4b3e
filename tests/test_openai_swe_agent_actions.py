"""SWE-agent's history (the ``history`` of its ``.traj``, a message list) keeps beside
each assistant message the command it parsed from the message's text and ran, as
``action`` (with the ``thought`` it parsed). With a text-based parser no tool call is
beside it: the command is a call the run's calls do not hold, so a check over them is an
ERROR, never a pass; the message is a note sent with it, and when no reply follows the
last one (SWE-agent ends on its ``submit`` command) the response is unknown."""

from __future__ import annotations

from pathlib import Path

from openai_chat import json_file, outcomes

RULES = ('eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
         'expect 3: not response contains "rm"\n')


def _step(text: str, action: str, **beside) -> dict:
    return {"role": "assistant", "content": f"{text}\n\n```\n{action}\n```", "thought": text, "action": action,
            "agent": "main", "message_type": "action", **beside}


def _history(*steps: dict) -> list[dict]:
    observed = {"role": "user", "content": "Your command ran successfully and did not produce any output.\n"
                "(Open file: n/a)\n(Current directory: /testbed)\nbash-$", "agent": "main",
                "message_type": "observation"}
    messages = [{"role": "system", "content": "SETTING: You are an autonomous programmer.", "agent": "main",
                 "message_type": "system_prompt"},
                {"role": "user", "content": "We're currently solving the following issue: remove /tmp/x",
                 "agent": "main", "message_type": "observation"}]
    for step in steps:
        messages += [step, observed]
    return messages


def _grade(tmp_path: Path, messages: list) -> list[str]:
    source = json_file(tmp_path / "history.json", messages)
    return outcomes(RULES, source)


def test_an_action_parsed_from_the_text_leaves_the_runs_calls_and_response_unknown(tmp_path: Path):
    messages = _history(_step("Let me remove it.", "rm -rf /tmp/x"), _step("Done.", "submit"))
    assert _grade(tmp_path, messages) == ["error", "error", "error"]


def test_an_action_made_by_a_tool_call_is_read_from_the_call(tmp_path: Path):
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
    step = _step("Let me look.", "ls", tool_calls=[call])
    answer = {"role": "tool", "content": "x", "tool_call_ids": ["c1"], "agent": "main", "message_type": "observation"}
    messages = [*_history()[:2], step, answer, {"role": "assistant", "content": "Nothing to remove."}]
    assert _grade(tmp_path, messages) == ["pass", "fail", "pass"]
