"""A prompt the user typed while the agent was at work reaches it as an ``attachment``
record (``queued_command``, ``commandMode`` "prompt"), not as a user message: it is a
request of the user, read as a user turn. A session that ends with one the agent never
answered has no known reply (``no-reply``), as one that ends with a user message does; a
background task's notification queued so is the harness's, no request."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

RULES = 'eval 1\nexpect 1: response contains "Deployed"\nexpect 2: not response contains "rolled"\n'
SESSION = "sess-9"


def _user(uuid: str, parent: str | None, text) -> dict:
    return {"type": "user", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION,
            "message": {"role": "user", "content": text}}


def _said(uuid: str, parent: str, text: str) -> dict:
    return {"type": "assistant", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION,
            "message": {"id": f"m-{uuid}", "role": "assistant", "stop_reason": "end_turn",
                        "content": [{"type": "text", "text": text}]}}


def _queued(uuid: str, parent: str, prompt: str, mode: str = "prompt") -> dict:
    return {"type": "attachment", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION,
            "attachment": {"type": "queued_command", "prompt": prompt, "commandMode": mode,
                           "origin": {"kind": "human" if mode == "prompt" else mode}}}


FIRST = [_user("u1", None, "Deploy the fix"), _said("a1", "u1", "Deployed.")]


def _write(tmp_path: Path, records: list[dict]) -> Path:
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return source


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, _write(tmp_path, records), as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_queued_prompt_never_answered_leaves_the_response_unknown(tmp_path):
    outcomes, problems = _graded(tmp_path, FIRST + [_queued("q1", "a1", "Now roll it back")])
    assert outcomes == ["error", "error"]
    assert any("no-reply" in p and "session.jsonl:3" in p for p in problems)


def test_a_queued_prompt_answered_is_read_as_before(tmp_path):
    records = FIRST + [_queued("q1", "a1", "And say it again"), _said("a2", "q1", "Deployed, again.")]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["pass", "pass"]
    assert not any("no-reply" in p for p in problems)


def test_a_queued_prompt_is_a_user_turn(tmp_path):
    conversation = conversations("claude-code", [_write(tmp_path, FIRST + [_queued("q1", "a1", "And the docs")])])[0]
    assert [(e.kind, e.text) for e in conversation.entries if isinstance(e, Text)][-1] == ("user", "And the docs")


def test_a_task_notification_after_the_reply_leaves_it_the_reply(tmp_path):
    note = "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>"
    outcomes, problems = _graded(tmp_path, FIRST + [_queued("q1", "a1", note, "task-notification")])
    assert outcomes == ["pass", "pass"]
