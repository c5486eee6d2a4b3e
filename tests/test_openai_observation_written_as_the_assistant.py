"""A ReAct scratchpad split over assistant messages: one writes an ``Action:`` and an
``Action Input:`` line, the next (the assistant's too, not a user turn) opens with
``Observation:``. Some harnesses write the observation back as the model's own turn;
or the model made it up. Nothing in the record tells which, so it is read as a
scratchpad kept in one message is: the run's calls are unknown (a check over them is
an ERROR, never a pass), no call is invented, both messages are notes, and the
response is unknown until a reply follows. Without such a call before it, a message
that opens with ``Observation:`` stays a reply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import openai_sources
from referee.engine.run.importers.source import read_source

RULES = ('eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
         'expect 3: not response contains "clean"\n')
ACTION = "Thought: delete it\nAction: bash\nAction Input: rm -rf /tmp/x"


def _said(text) -> dict:
    return {"role": "assistant", "content": text}


def _write(tmp_path: Path, *said: dict) -> Path:
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([{"role": "user", "content": "clean up /tmp/x"}, *said]), encoding="utf-8")
    return source


def _grade(tmp_path: Path, *said: dict) -> list[str]:
    result, = referee.grade(RULES, _write(tmp_path, *said), as_eval="1")
    return [item["outcome"] for item in result.expectations]


SPLIT = {
    "langchain": (ACTION, "Observation: done\nFinal Answer: clean."),
    "numbered": ("Thought 1: delete it\nAction 1: bash\nAction 1 Input: rm -rf /tmp/x",
                 "Observation 1: done\nFinal Answer: clean."),
    "in-a-part": (ACTION, [{"type": "text", "text": "Observation: done\nFinal Answer: clean."}]),
}


@pytest.mark.parametrize("action, answer", SPLIT.values(), ids=SPLIT.keys())
def test_an_observation_in_the_next_assistant_message_leaves_calls_and_response_unknown(tmp_path: Path, action,
                                                                                        answer):
    assert _grade(tmp_path, _said(action), _said(answer)) == ["error", "error", "error"]


def test_both_messages_are_notes_and_no_call_is_invented(tmp_path: Path):
    source = _write(tmp_path, _said(ACTION), _said("Observation: done\nFinal Answer: clean."))
    conversation, = openai_sources.read_conversations(read_source(source))
    assert [(e.kind, e.title) for e in conversation.entries][1:] == [("agent", "text sent with a tool call")] * 2
    assert {"calls-may-be-missing", "unread-text"} <= {p.code for p in conversation.problems}
    assert all(reply.unsure for reply in conversation.response)


def test_a_reply_after_it_is_the_response(tmp_path: Path):
    said = (_said(ACTION), _said("Observation: done"), {"role": "user", "content": "and now?"},
            _said("It is tidy."))
    assert _grade(tmp_path, *said) == ["error", "error", "pass"]


def test_an_observation_after_no_action_stays_a_reply(tmp_path: Path):
    said = (_said("Let me look."), _said("Observation: the folder is clean."))
    assert _grade(tmp_path, *said) == ["pass", "pass", "fail"]
