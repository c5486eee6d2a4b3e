"""An AI SDK UI message keeps its calls apart from its text (``toolInvocations``, tool
``parts``), and its ``content`` is the text of all its steps: words before a call and,
after the last, maybe the reply. The text is never read as the reply it may not be, nor
its absence as no reply: a check on the response is an ERROR."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.writer import render_run

INVOCATION = {"state": "result", "toolCallId": "c1", "toolName": "search", "args": {"q": "ZRH"}, "result": "[]"}
RULES = 'eval 1\nexpect 1: not response contains "search"\nexpect 2: response contains "LX2084"\n'
NARRATED = {
    "tool-invocations": {"role": "assistant", "content": "Let me search first. Booked LX2084.",
                         "toolInvocations": [INVOCATION]},
    "tool-invocation-part": {"role": "assistant", "content": "Let me search first. Booked LX2084.",
                             "parts": [{"type": "text", "text": "Let me search first. "},
                                       {"type": "tool-invocation", "toolInvocation": INVOCATION},
                                       {"type": "text", "text": "Booked LX2084."}]},
}


def _source(tmp_path: Path, *messages: dict) -> Path:
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([{"role": "user", "content": "book a flight"}, *messages]), encoding="utf-8")
    return source


@pytest.mark.parametrize("message", NARRATED.values(), ids=NARRATED.keys())
def test_text_beside_unread_calls_is_a_note_and_the_response_unknown(tmp_path: Path, message: dict):
    (found,) = conversations("openai", [_source(tmp_path, message)])
    files = render_run(found).files
    assert "LX2084" not in files.get("outputs/response.md", "")
    assert "text sent with a tool call" in files["outputs/transcript.md"]
    assert any(p["code"] == "unread-text" for p in json.loads(files["source_map.json"])["problems"])
    result, = referee.grade(RULES, _source(tmp_path, message), as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"], result.expectations


def test_a_message_with_its_calls_and_no_text_leaves_the_later_reply_known(tmp_path: Path):
    quiet = {"role": "assistant", "content": "", "toolInvocations": [INVOCATION]}
    result, = referee.grade(RULES, _source(tmp_path, quiet, {"role": "assistant", "content": "Booked LX2084."}),
                            as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["pass", "pass"], result.expectations


def test_words_in_parts_beside_a_tool_part_leave_the_response_unknown(tmp_path: Path):
    """AI SDK 5 gives no content: the text part after the tool part is words not read,
    which may be the reply, whatever the message's calls."""
    message = {"role": "assistant", "parts": [
        {"type": "step-start"},
        {"type": "tool-search", "toolCallId": "c1", "state": "output-available", "input": {}, "output": "[]"},
        {"type": "text", "text": "Booked LX2084."}]}
    result, = referee.grade(RULES, _source(tmp_path, message), as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"], result.expectations
