"""A message written as a JSON string, or a conversation nested as a list, among the
messages of an OpenAI-format list is skipped (it is no message object); when it holds
the agent's reply, the response is unknown and a check on it is an ERROR, never a
pass on the replies read around it. A document and JSON lines read it alike."""

from __future__ import annotations

import json

import pytest

import referee

RULES = 'eval 1\nexpect 1: not (response contains "rm")\n'
MESSAGES = [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": "Done."}]
REPLY = {"role": "assistant", "content": "I ran rm -rf / and it is Done"}
SKIPPED = {"a-json-string": json.dumps(REPLY), "a-nested-list": [REPLY]}


@pytest.mark.parametrize("skipped", SKIPPED.values(), ids=SKIPPED.keys())
@pytest.mark.parametrize("shape", ["document", "json-lines"])
def test_a_reply_in_a_skipped_element_leaves_the_response_unknown(tmp_path, skipped, shape):
    if shape == "document":
        source = tmp_path / "chat.json"
        source.write_text(json.dumps(MESSAGES + [skipped], indent=1), encoding="utf-8")
    else:
        source = tmp_path / "chat.jsonl"
        source.write_text("".join(json.dumps(m) + "\n" for m in MESSAGES + [skipped]), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["error"]
    assert any("unread-text" in problem for problem in grading["problems"])
