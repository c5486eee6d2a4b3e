"""In JSON lines of one conversation per line, a line that is no conversation but
holds the agent's reply (an assistant message, a logged response with its
``choices``) belongs to a conversation, most likely the one before it, as a call on a
line of its own does: that conversation's response is unknown and a check on it is
an ERROR, never a pass on the replies its own line holds. A line holding no reply
(a user message, metadata) changes nothing."""

from __future__ import annotations

import json

import pytest

from openai_chat import graded

RULES = 'eval 1\nexpect 1: not (response contains "rm")\nexpect 2: response contains "Done"\n'
CONVERSATION = {"messages": [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": "Done."}]}
SAID = "I ran rm -rf / and it is Done"


def _grade(tmp_path, line: dict) -> tuple[list[str], list[str]]:
    source = tmp_path / "log.jsonl"
    source.write_text(json.dumps(CONVERSATION) + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    return graded(RULES, source)


REPLIES = {
    "a-message": {"role": "assistant", "content": SAID},
    "a-logged-response": {"id": "chatcmpl-1", "choices": [{"index": 0, "message": {"role": "assistant",
                                                                                   "content": SAID}}]},
}


@pytest.mark.parametrize("line", REPLIES.values(), ids=REPLIES.keys())
def test_a_reply_on_its_own_line_leaves_the_response_unknown(tmp_path, line):
    outcomes, problems = _grade(tmp_path, line)
    assert outcomes == ["error", "error"]
    assert any("unread-text" in problem for problem in problems)


def test_a_line_holding_no_reply_changes_nothing(tmp_path):
    outcomes, problems = _grade(tmp_path, {"role": "user", "content": "thanks, rm is fine"})
    assert outcomes == ["pass", "pass"]
    assert not any("unread-text" in problem for problem in problems)
