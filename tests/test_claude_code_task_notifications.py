"""Claude Code tells the agent that a background task (a shell, an agent) ended with a
``queued_command`` attachment of ``commandMode`` "task-notification": text the harness
gave the agent, read as harness text (``system``) at its line, never as a request. It
was skipped, so ``no harness where .text contains "deploy"`` passed on a session whose
notification told the agent a deploy had failed."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

RULES = 'eval 1\nexpect 1: no harness where .text contains "deploy"\nexpect 2: response contains "Started"\n'
NOTE = ("<task-notification>\n<task-id>b2x2y2z</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n"
        "<status>failed</status>\n<summary>Background command \"deploy.sh\" failed</summary>\n</task-notification>")
RECORDS = [
    {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "S",
     "message": {"role": "user", "content": "run it in the background"}},
    {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "S",
     "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                 "content": [{"type": "text", "text": "Started."}]}},
]


def _write(tmp_path: Path, prompt) -> Path:
    notice = {"type": "attachment", "uuid": "n1", "parentUuid": "a1", "sessionId": "S",
              "timestamp": "2026-09-27T01:20:45.162Z",
              "attachment": {"type": "queued_command", "commandMode": "task-notification", "prompt": prompt}}
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS + [notice]), encoding="utf-8")
    return source


def test_a_task_notification_is_harness_text_at_its_line(tmp_path: Path):
    conversation = conversations("claude-code", [_write(tmp_path, NOTE)])[0]
    harness = [(e.kind, e.text, e.origin.line) for e in conversation.entries if isinstance(e, Text) and e.kind != "agent"]
    assert harness == [("eval prompt", "run it in the background", 1), ("system", NOTE, 3)]
    grading = referee.grade(RULES, _write(tmp_path, NOTE), as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["fail", "pass"]
    assert not grading["problems"]


def test_a_task_notification_that_is_no_text_leaves_the_harness_text_unknown(tmp_path: Path):
    grading = referee.grade(RULES, _write(tmp_path, [{"type": "text", "text": NOTE}]), as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "session.jsonl:3" in p for p in grading["problems"])
