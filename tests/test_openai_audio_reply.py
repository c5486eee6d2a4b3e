"""An OpenAI-format assistant message that replies with audio (Chat Completions audio
output: ``"audio": {"id": ..., "data": ..., "transcript": ...}``) said what its
transcript says: a reply (a note beside a tool call), cited at the transcript. Audio
whose words are not given (``{"id": ...}`` alone, as a request sends back an earlier
reply) leaves what the agent said unknown: a check on the response is an ERROR, never a
pass on the other replies or on none."""

from __future__ import annotations

import json
import re

import pytest

import referee

PROMPT = {"role": "user", "content": "what is the code?"}
RULES = 'eval 1\nexpect 1: not (response contains "1234")\nexpect 2: response contains "Done"\n'
CALL = {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}}


def _grade(tmp_path, *messages: dict) -> tuple[list[dict], list[str], list[str]]:
    """The expectations of the conversation's run, its warnings and the source's lines."""
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([PROMPT, *messages], indent=2), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return grading["expectations"], grading["problems"], source.read_text(encoding="utf-8").splitlines()


def test_an_audio_transcript_is_a_reply(tmp_path):
    reply = {"role": "assistant", "content": None,
             "audio": {"id": "audio_1", "data": "UklGRg==", "expires_at": 1, "transcript": "Done: 1234."}}
    expectations, _, lines = _grade(tmp_path, reply)
    assert [e["outcome"] for e in expectations] == ["fail", "pass"]
    line = int(re.search(r'chat\.json:(\d+)', expectations[0]["evidence"]).group(1))
    assert '"transcript"' in lines[line - 1]


def test_an_audio_transcript_beside_content_is_read_too(tmp_path):
    reply = {"role": "assistant", "content": "Done.", "audio": {"id": "audio_1", "transcript": "the code is 1234"}}
    expectations, _, _ = _grade(tmp_path, reply)
    assert [e["outcome"] for e in expectations] == ["fail", "pass"]


UNREAD = {
    "audio-by-id": {"id": "audio_1"},
    "transcript-not-text": {"id": "audio_1", "transcript": ["1234"]},
    "audio-not-an-object": "audio_1",
}


@pytest.mark.parametrize("audio", UNREAD.values(), ids=UNREAD.keys())
def test_audio_whose_words_are_not_given_leaves_the_response_unknown(tmp_path, audio):
    expectations, problems, _ = _grade(tmp_path, {"role": "assistant", "content": "Done.", "audio": audio})
    assert [e["outcome"] for e in expectations] == ["error", "error"]
    assert any("unread-text" in problem for problem in problems)


def test_audio_beside_a_tool_call_is_a_note(tmp_path):
    note = {"role": "assistant", "content": None, "tool_calls": [CALL], "audio": {"id": "audio_1"}}
    spoken = {"role": "assistant", "content": None, "tool_calls": [dict(CALL, id="c2")],
              "audio": {"id": "audio_2", "transcript": "the code is 1234"}}
    expectations, problems, _ = _grade(tmp_path, note, {"role": "tool", "tool_call_id": "c1", "content": "ok"},
                                       spoken, {"role": "tool", "tool_call_id": "c2", "content": "ok"},
                                       {"role": "assistant", "content": "Done."})
    assert [e["outcome"] for e in expectations] == ["pass", "pass"]
    assert any("unread-text" in problem for problem in problems)  # still said


def test_a_null_audio_changes_nothing(tmp_path):
    expectations, problems, _ = _grade(tmp_path, {"role": "assistant", "content": "Done.", "audio": None})
    assert [e["outcome"] for e in expectations] == ["pass", "pass"]
    assert not any("unread-text" in problem for problem in problems)
