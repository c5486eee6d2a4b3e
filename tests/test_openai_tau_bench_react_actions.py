"""tau-bench's ReAct and Act agents (``--agent-strategy react``, ``act``) write each step
as text: ``Action:`` and then a JSON ``{"name": ..., "arguments": {...}}``, which tau-bench
parses and runs, answering a tool's action in a user turn that opens with ``API output:``
(its ``respond`` action is the reply to the user, answered by the user's words). Such a
call is never read as a call, but the run's calls are incomplete (a check over them is
an ERROR, never a pass), and the message that wrote it is a note, not a reply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import openai_sources
from referee.engine.run.importers.source import read_source

RULES = ('eval 1\nexpect 1: no calls to "cancel_pending_order"\nexpect 2: count(calls) == 0\n'
         'expect 3: response contains "cancelled"\nexpect 4: not response contains "reason"\n')
CANCEL = 'Action:\n{"name": "cancel_pending_order", "arguments": {"order_id": "#W1", "reason": "no longer needed"}}'
RESPOND = 'Action:\n{"name": "respond", "arguments": {"content": "Your order is cancelled."}}'


def _traj(action: str, respond: str = RESPOND) -> list[dict]:
    return [{"role": "system", "content": "policy"}, {"role": "user", "content": "Cancel order #W1."},
            {"role": "assistant", "content": action},
            {"role": "user", "content": 'API output: {"order_id": "#W1", "status": "cancelled"}'},
            {"role": "assistant", "content": respond}, {"role": "user", "content": "Thanks! ###STOP###"}]


def _write(tmp_path: Path, traj: list[dict]) -> Path:
    source = tmp_path / "results.json"
    source.write_text(json.dumps([{"task_id": 0, "reward": 1.0, "info": {}, "traj": traj, "trial": 0}]),
                      encoding="utf-8")
    return source


def _grade(tmp_path: Path, traj: list[dict]) -> list[str]:
    result, = referee.grade(RULES, _write(tmp_path, traj), as_eval="1")
    return [item["outcome"] for item in result.expectations]


ACTIONS = {
    "react": "Thought:\nThe user wants it cancelled.\n" + CANCEL,
    "act": CANCEL,
    "fenced": "Thought:\nCancel it.\nAction:\n```json\n" + CANCEL.split("\n", 1)[1] + "\n```",
}


@pytest.mark.parametrize("action", ACTIONS.values(), ids=ACTIONS.keys())
def test_an_action_answered_by_api_output_leaves_the_runs_calls_unknown(tmp_path: Path, action: str):
    assert _grade(tmp_path, _traj(action)) == ["error", "error", "pass", "pass"]


def test_the_action_is_a_note_and_the_respond_action_the_reply(tmp_path: Path):
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, _traj(ACTIONS["react"]))))
    titles = [entry.title for entry in conversation.entries if entry.kind == "agent"]
    assert titles == ["text sent with a tool call", "reply"]
    assert "calls-may-be-missing" in {p.code for p in conversation.problems}


def test_a_respond_action_the_user_answers_is_a_reply(tmp_path: Path):
    traj = [{"role": "user", "content": "Cancel order #W1."}, {"role": "assistant", "content": RESPOND},
            {"role": "user", "content": "Thanks! ###STOP###"}]
    assert _grade(tmp_path, traj) == ["pass", "pass", "pass", "pass"]


def test_api_output_after_no_action_changes_nothing(tmp_path: Path):
    traj = [{"role": "user", "content": "Cancel order #W1."}, {"role": "assistant", "content": "Which order?"},
            {"role": "user", "content": "API output: is what the tool said"},
            {"role": "assistant", "content": "It is cancelled."}]
    assert _grade(tmp_path, traj) == ["pass", "pass", "pass", "pass"]


def test_a_run_ending_on_a_respond_action_ends_on_its_reply(tmp_path: Path):
    traj = [{"role": "user", "content": "Cancel order #W1."}, {"role": "assistant", "content": RESPOND}]
    assert _grade(tmp_path, traj) == ["pass", "pass", "pass", "pass"]


def test_a_run_ending_on_a_tools_action_leaves_calls_and_response_unknown(tmp_path: Path):
    traj = [{"role": "user", "content": "Cancel order #W1."}, {"role": "assistant", "content": ACTIONS["react"]}]
    assert _grade(tmp_path, traj) == ["error", "error", "error", "error"]
