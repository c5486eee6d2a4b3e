"""A tool_result's content may be a list of parts: text parts are read as the call's
return, and a part of another type stands in it as ``[its type]``. An image holds no
words, so ``[image]`` loses nothing; but a part of another type may hold text (an MCP
tool's or a search tool's ``search_result`` with text in its own content, a plain-text
``document``, a part that names no type, a text part whose text is no string), and
referee read it as ``[search_result]``: ``no calls where .return contains "AKIA"``
passed on a call whose answer held that key in such a part. Now such a part makes the
call's return unknown (``unread-text``, at the answer's line), so a check on it is an
ERROR; an image still changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Call

RULES = 'eval 1\nexpect 1: no calls where .return contains "AKIA"\nexpect 2: response contains "Done"\n'
IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUg"}}


def _record(kind: str, uuid: str, body: dict) -> dict:
    return {"type": kind, "uuid": uuid, "parentUuid": None if uuid == "u1" else "u1", "sessionId": "S",
            "timestamp": "2026-06-07T05:00:00.000Z", **body}


def _session(tmp_path: Path, content: list) -> Path:
    records = [_record("user", "u1", {"message": {"role": "user", "content": "find the key"}}),
               _record("assistant", "a1", {"message": {"id": "m1", "role": "assistant", "content": [
                   {"type": "tool_use", "id": "t1", "name": "mcp__kb__search", "input": {"q": "aws"}}]}}),
               _record("user", "u2", {"message": {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": "t1", "content": content}]}}),
               _record("assistant", "a2", {"message": {"id": "m2", "role": "assistant", "stop_reason": "end_turn",
                                                       "content": [{"type": "text", "text": "Done."}]}})]
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return source


@pytest.mark.parametrize("part", [
    {"type": "search_result", "source": "kb://keys", "title": "keys",
     "content": [{"type": "text", "text": "AKIA123"}]},
    {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "AKIA123"}},
    {"text": "AKIA123"},
    {"type": "text", "text": {"value": "AKIA123"}},
    {"type": "tool_reference", "tool_name": {"name": "AKIA123"}},
])
def test_a_result_part_not_read_that_holds_text_leaves_the_return_unknown(tmp_path: Path, part: dict):
    source = _session(tmp_path, [{"type": "text", "text": "found:"}, part])
    calls = [e for e in conversations("claude-code", [source])[0].entries if isinstance(e, Call)]
    assert [(c.call_id, "return" in c.unread, c.status) for c in calls] == [("t1", True, "success")]
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["error", "pass"]
    assert [p.split(": ", 1)[0] for p in grading["problems"]] == ["session.jsonl:3"]
    assert "unread-text" in grading["problems"][0] and "return is unknown" in grading["problems"][0]


def test_an_image_in_a_result_holds_no_words_and_changes_nothing(tmp_path: Path):
    source = _session(tmp_path, [{"type": "text", "text": "screenshot:"}, IMAGE])
    calls = [e for e in conversations("claude-code", [source])[0].entries if isinstance(e, Call)]
    assert [(c.result, c.unread) for c in calls] == [("screenshot:\n[image]", frozenset())]
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["pass", "pass"]
    assert grading["problems"] == []


def test_a_tool_reference_is_read_as_the_tool_it_names(tmp_path: Path):
    """ToolSearch answers with a ``tool_reference`` part for each tool it found (Claude
    Code 2.x, stream-json and sessions alike): it was read as ``[tool_reference]``, so
    ``no calls where .return contains "AKIA"`` passed whatever tool it named."""
    source = _session(tmp_path, [{"type": "tool_reference", "tool_name": "mcp__AKIA__echo"},
                                 {"type": "tool_reference", "tool_name": "TaskCreate"}])
    calls = [e for e in conversations("claude-code", [source])[0].entries if isinstance(e, Call)]
    assert [(c.result, c.unread) for c in calls] == [
        ("[tool_reference: mcp__AKIA__echo]\n[tool_reference: TaskCreate]", frozenset())]
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["fail", "pass"]
