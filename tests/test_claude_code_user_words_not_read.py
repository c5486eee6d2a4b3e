"""A turn of the user in a Claude Code session whose words are in a shape the reader
does not take (a message whose content is one object, a text part whose text is no
string, a part of a type it does not know that holds text (a plain-text document's
words are its source's ``data``), a message that is no
object, a queued prompt given as parts) was dropped without a word: ``no harness
where ...`` passed on the turns read around it, and the reply before it was taken for
the answer to it. Such a turn now says ``harness-may-be-missing`` (every check over
the harness text is an ERROR) and is a request the agent has not answered when
nothing of the agent follows it (the response is unknown, and so are the calls it made
answering it, past the end of the log)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers import record as R
from referee.engine.run.importers.record import Text

RULES = ('eval 1\nexpect 1: no harness where .text contains "zzz"\nexpect 2: not response contains "zzz"\n'
         'expect 3: no calls to "Bash"\n')


def _user(uid: str, parent: str | None, content, **more) -> dict:
    return {"type": "user", "sessionId": "S", "uuid": uid, "parentUuid": parent, "cwd": "/tmp/p",
            "message": {"role": "user", "content": content}, **more}


def _assistant(uid: str, parent: str, text: str, mid: str) -> dict:
    return {"type": "assistant", "sessionId": "S", "uuid": uid, "parentUuid": parent, "cwd": "/tmp/p",
            "message": {"id": mid, "role": "assistant", "content": [{"type": "text", "text": text}],
                        "stop_reason": "end_turn"}}


BASE = [_user("u1", None, "list files"), _assistant("a1", "u1", "Files: a, b.", "m1")]
TURNS = {
    "content-one-object": _user("u2", "a1", {"type": "text", "text": "delete zzz"}),
    "text-no-string": _user("u2", "a1", [{"type": "text", "text": ["delete zzz"]}]),
    "part-of-another-type": _user("u2", "a1", [{"type": "input_text", "text": "delete zzz"}]),
    "plain-text-document": _user("u2", "a1", [{"type": "document", "source": {"type": "text", "media_type": "text/plain",
                                                                             "data": "delete zzz"}}]),
    "message-no-object": {"type": "user", "sessionId": "S", "uuid": "u2", "parentUuid": "a1",
                          "message": "delete zzz"},
    "queued-prompt-parts": {"type": "attachment", "sessionId": "S", "uuid": "q2", "parentUuid": "a1",
                            "attachment": {"type": "queued_command", "prompt": [{"type": "text", "text": "delete zzz"}]}},
}


def _grade(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


@pytest.mark.parametrize("turn", TURNS.values(), ids=TURNS.keys())
def test_a_last_turn_not_read_leaves_the_harness_text_and_the_response_unknown(tmp_path: Path, turn: dict):
    outcomes, problems = _grade(tmp_path, BASE + [turn])
    assert outcomes == ["error", "error", "error"]
    assert any("harness-may-be-missing" in p and "session.jsonl:3" in p for p in problems)


@pytest.mark.parametrize("turn", TURNS.values(), ids=TURNS.keys())
def test_a_turn_not_read_and_answered_leaves_the_harness_text_unknown(tmp_path: Path, turn: dict):
    outcomes, _ = _grade(tmp_path, BASE + [turn, _assistant("a2", "u2", "Nothing to do.", "m2")])
    assert outcomes == ["error", "pass", "pass"]


def test_a_first_turn_not_read_is_the_eval_prompt_all_the_same(tmp_path: Path):
    source = tmp_path / "session.jsonl"
    records = [_user("u0", None, {"type": "text", "text": "delete zzz"})] + BASE
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    conversation, = conversations("claude-code", [source])
    assert [e.kind for e in conversation.entries if isinstance(e, Text) and e.kind != "agent"] == [R.USER]


def test_parts_without_words_leave_the_harness_text_known(tmp_path: Path):
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    outcomes, problems = _grade(tmp_path, BASE + [_user("u2", "a1", [image, {"type": "text", "text": "what is it"}]),
                                                  _assistant("a2", "u2", "A cat.", "m2")])
    assert outcomes == ["pass", "pass", "pass"]
    assert not any("harness-may-be-missing" in p for p in problems)
