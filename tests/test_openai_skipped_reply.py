"""An OpenAI-format message skipped for its role (one the format does not have, like
Gemini's ``model``, or none) may be the agent's reply: when it holds words, the
response is unknown and a check on it is an ERROR, never a pass on the replies
read. A skipped message holding no words leaves the response as read."""

from __future__ import annotations

import pytest

from openai_chat import graded, json_file

RULES = 'eval 1\nexpect 1: not (response contains "rm")\nexpect 2: response contains "Done"\n'
MESSAGES = [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": "Done."}]
SAID = "I ran rm -rf / and it is Done"


def _grade(tmp_path, message: dict) -> tuple[list[str], list[str]]:
    source = json_file(tmp_path / "chat.json", MESSAGES + [message])
    return graded(RULES, source)


SKIPPED = {
    "another-role": {"role": "model", "content": SAID},
    "no-role": {"content": [{"type": "output_text", "text": SAID}]},
    "role-not-text": {"role": ["assistant"], "content": SAID},
    "a-conversation-inside": {"messages": [{"role": "assistant", "content": SAID}]},
}


@pytest.mark.parametrize("message", SKIPPED.values(), ids=SKIPPED.keys())
def test_a_skipped_message_with_words_leaves_the_response_unknown(tmp_path, message):
    outcomes, problems = _grade(tmp_path, message)
    assert outcomes == ["error", "error"]
    assert any("unread-text" in problem for problem in problems)


def test_a_skipped_message_without_words_changes_nothing(tmp_path):
    outcomes, problems = _grade(tmp_path, {"role": "model", "content": None, "id": "m7"})
    assert outcomes == ["pass", "pass"]
    assert not any("unread-text" in problem for problem in problems)
