"""A Claude Code message whose stop reason says the model did not finish (a token
limit, the context window, a refusal) is read as far as it went, and the run says it
stopped short (``incomplete``), as an OpenAI message that ended with finish_reason
``length`` does: a check on the reply then reads words the model never finished.
The real Claude Code 2.0.76 session below (fasthooks' sample, MIT) writes its stop
reasons null, as that version did on a message's lines; here the line of its last
words is given one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.run.importers import read_sources

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "fasthooks-samples" / \
    "sample_main_transcript.jsonl"


def _last_words(record: dict) -> bool:
    content = record.get("message", {}).get("content")
    return record.get("type") == "assistant" and isinstance(content, list) and \
        any(isinstance(part, dict) and part.get("type") == "text" for part in content)


def _read(tmp_path: Path, stop: object = None) -> tuple[list, str, int]:
    """The problems and reply of the real session, the line of its last words given the
    stop reason ``stop`` (None: the session as it is), and that line."""
    lines = REAL.read_text(encoding="utf-8").splitlines()
    at = max(n for n, line in enumerate(lines) if _last_words(json.loads(line)))
    if stop is not None:
        record = json.loads(lines[at])
        record["message"]["stop_reason"] = stop
        lines[at] = json.dumps(record)
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (_, _, conversation), = read_sources("claude-code", [source]).found
    return list(conversation.problems), "".join(text.text for text in conversation.response), at + 1


def test_the_real_session_as_it_is_says_nothing_of_it(tmp_path: Path):
    problems, reply, _ = _read(tmp_path)
    assert reply and not [p for p in problems if p.code == "incomplete"]


@pytest.mark.parametrize("stop", ["max_tokens", "model_context_window_exceeded", "refusal"])
def test_a_message_the_model_did_not_finish_is_said_once_and_read_as_given(tmp_path: Path, stop: str):
    problems, reply, line = _read(tmp_path, stop)
    told = [p for p in problems if p.code == "incomplete"]
    assert [(p.line, stop in p.message) for p in told] == [(line, True)]
    assert reply == _read(tmp_path)[1]


@pytest.mark.parametrize("stop", [["max_tokens"], {"reason": "max_tokens"}, 3, "pause_turn", "stop_sequence",
                                  "end_turn"])
def test_a_stop_reason_of_another_kind_or_shape_says_nothing(tmp_path: Path, stop: object):
    problems, _, _ = _read(tmp_path, stop)
    assert not [p for p in problems if p.code == "incomplete"]
