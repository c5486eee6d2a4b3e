"""A stream (stream-json) tells that a background task ended with a ``system`` record of
subtype ``task_notification`` (its ``summary``, ``task_id``, ``status``): Claude Code gives
the agent the notice, and the stream writes no user record of it, as a session writes a
``queued_command`` of ``commandMode`` "task-notification". referee skipped the record, so
``no harness where .text contains "deploy"`` passed on a stream whose notice told the
agent a deploy had failed. Now its summary is harness text (``system``) at its line, never
a request; a summary that is no text leaves the harness text unknown."""

from __future__ import annotations

from pathlib import Path

from hook_stream import graded, write_stream

from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text


def _notice(**members: object) -> dict:
    return {"type": "system", "subtype": "task_notification", "task_id": "b2x", "tool_use_id": "toolu_1",
            "status": "failed", "output_file": "/tmp/tasks/b2x.output", "uuid": "n1", "session_id": "s", **members}


def test_a_stream_s_task_notification_is_harness_text_at_its_line(tmp_path: Path):
    notice = _notice(summary='Background command "deploy.sh" failed')
    texts = [(e.kind, e.text, e.origin.line) for e in conversations("claude-code", [write_stream(tmp_path, notice)])[0]
             .entries if isinstance(e, Text) and e.kind != "agent"]
    assert texts == [("eval prompt", "fix it", 2), ("system", 'Background command "deploy.sh" failed', 3)]
    assert graded(tmp_path, notice) == (["fail", "pass"], [])


def test_a_task_notification_with_no_summary_read_leaves_the_harness_text_unknown(tmp_path: Path):
    outcomes, problems = graded(tmp_path, _notice(summary={"text": "deploy failed"}))
    assert outcomes == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "stream.jsonl:3" in p for p in problems)


def test_a_task_notification_with_no_words_gives_nothing(tmp_path: Path):
    for notice in (_notice(), _notice(summary=""), _notice(summary="Task done")):
        assert graded(tmp_path, notice) == (["pass", "pass"], [])
