"""An assistant message saved by the Vercel AI SDK (a UI message) may keep its words in
``parts`` (``{"type": "text", "text": ...}``) and not in ``content`` (AI SDK 5 gives no
content; others leave it empty). The reader takes ``content``: words in ``parts`` that
it does not hold are words not read, so the response is unknown and a check on it is an
ERROR, never a pass on an empty response. A UI message whose content holds what its text
parts say (AI SDK 4 keeps both) is read as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import json_file, outcomes

RULES = 'eval 1\nexpect 1: not response contains "deleted"\nexpect 2: response contains "Removed"\n'
USER = {"role": "user", "content": "clean up"}
PARTS = [{"type": "step-start"}, {"type": "text", "text": "Removed the build folder; deleted 3 files."}]

NOT_READ = {
    "empty-content": {"role": "assistant", "content": "", "parts": PARTS},
    "no-content": {"id": "m2", "role": "assistant", "parts": PARTS},
    "content-says-less": {"role": "assistant", "content": "Removed the build folder.", "parts": [
        {"type": "text", "text": "Removed the build folder."}, {"type": "text", "text": "I deleted 3 files."}]},
    "text-no-string": {"role": "assistant", "content": "Removed.", "parts": [{"type": "text", "text": ["deleted"]}]},
}


def _grade(tmp_path: Path, message: dict) -> list[str]:
    source = json_file(tmp_path / "chat.json", [USER, message])
    return outcomes(RULES, source)


@pytest.mark.parametrize("message", NOT_READ.values(), ids=NOT_READ.keys())
def test_words_in_parts_the_content_does_not_hold_leave_the_response_unknown(tmp_path: Path, message: dict):
    assert _grade(tmp_path, message) == ["error", "error"]


def test_parts_that_repeat_the_content_are_read_as_the_content(tmp_path: Path):
    message = {"role": "assistant", "content": "Removed the build folder; deleted 3 files.", "parts": PARTS}
    assert _grade(tmp_path, message) == ["fail", "pass"]
