"""Claude Code tells an agent that waits for nothing that a background task (a shell, a
subagent) ended with a user record it writes itself: its content opens with
``<task-notification>``, and newer versions name it so (``origin.kind``
"task-notification"). The harness wrote it, not the user: it is harness text
(``system``) at its line, as the same notice given as a ``queued_command`` attachment is,
never the eval prompt nor a turn of the user, and it asks the agent nothing the user
asked. referee read it as a turn of the user: one met before the user's first words
became the eval prompt (so ``eval prompt`` checks were decided on the notice), and one
after the agent's reply made the response unknown."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

NOTE = ("<task-notification>\n<task-id>b1a2b3c4d</task-id>\n<tool-use-id>t1</tool-use-id>\n"
        "<status>failed</status>\n<summary>Background command \"deploy.sh\" failed</summary>\n</task-notification>")
RULES = ('eval 1\nexpect 1: response contains "Started"\n'
         'expect 2: no harness where .text contains "deploy.sh"\n')


def _record(kind: str, uuid: str, parent: str | None, body: dict) -> dict:
    return {"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "S",
            "timestamp": "2026-06-07T05:00:00.000Z", **body}


def _notice(parent: str | None, content: object, origin: bool = True) -> dict:
    named = {"origin": {"kind": "task-notification"}} if origin else {}
    return _record("user", "n1", parent, {**named, "message": {"role": "user", "content": content}})


def _write(tmp_path: Path, notice: dict, first: bool = False) -> Path:
    prompt = _record("user", "u1", None, {"message": {"role": "user", "content": "run deploy.sh in the background"}})
    reply = _record("assistant", "a1", "u1", {"message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                                                          "content": [{"type": "text", "text": "Started."}]}})
    records = [notice, prompt, reply] if first else [prompt, reply, notice]
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return source


def _harness(source: Path) -> list[tuple[str, int]]:
    entries = conversations("claude-code", [source])[0].entries
    return [(e.kind, e.origin.line) for e in entries if isinstance(e, Text) and e.kind != "agent"]


def test_a_task_notification_after_the_reply_is_harness_text_and_asks_nothing(tmp_path: Path):
    for notice in (_notice("a1", NOTE), _notice("a1", NOTE, origin=False),
                   _notice("a1", [{"type": "text", "text": NOTE}])):
        source = _write(tmp_path, notice)
        assert _harness(source) == [("eval prompt", 1), ("system", 3)]
        grading = referee.grade(RULES, source, as_eval="1")[0].grading
        # the reply stands; the notice is harness text, where the check finds it
        assert [e["outcome"] for e in grading["expectations"]] == ["pass", "fail"]
        assert grading["problems"] == []


def test_a_task_notification_before_the_user_s_words_is_never_the_eval_prompt(tmp_path: Path):
    source = _write(tmp_path, _notice(None, NOTE), first=True)
    assert _harness(source) == [("system", 1), ("eval prompt", 2)]
    prompt = conversations("claude-code", [source])[0]
    assert next(e.text for e in prompt.entries if isinstance(e, Text) and e.kind == "eval prompt") == \
        "run deploy.sh in the background"
