"""A message of an OpenAI-format conversation that cannot be read (a JSON line cut
short or not JSON, a document's element that is not JSON) may be one of the agent's
replies, which make up the response: a check on the response is an ERROR, never a
pass on the replies read. JSON lines of one conversation per line lose the
conversation of such a line instead, and leave the others' responses as read."""

from __future__ import annotations

import json

import pytest

import referee
from referee.engine.cli import main

RULES = 'eval 1\nexpect 1: not (response contains "rm")\n'
PROMPT = json.dumps({"role": "user", "content": "clean up"})
REPLY = json.dumps({"role": "assistant", "content": "Done."})
SOURCES = {
    "a-line-cut-short": ("chat.jsonl", f'{PROMPT}\n{REPLY}\n{{"role": "assistant", "content": "I ran rm'),
    "a-line-not-json": ("chat.jsonl", f'{PROMPT}\n{REPLY}\n{{"role": "assistant", "content": "I ran rm" x}}\n'),
    "an-element-not-json": ("chat.json", f'[{PROMPT},\n{REPLY},\n{{"role": "assistant", "content": "I ran rm" x}}]'),
}


@pytest.mark.parametrize("source", SOURCES.values(), ids=SOURCES.keys())
def test_a_message_not_read_leaves_the_response_unknown(tmp_path, source):
    name, text = source
    (tmp_path / name).write_text(text, encoding="utf-8")
    grading = referee.grade(RULES, tmp_path / name, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["error"]


def test_a_conversation_lost_leaves_the_others_as_read(tmp_path):
    # the lost one keeps its number (tests/test_openai_conversation_lines_numbering.py): the
    # others are chats-1 and chats-3, imported and graded as read
    conversation = json.dumps({"messages": [json.loads(PROMPT), json.loads(REPLY)]})
    (tmp_path / "chats.jsonl").write_text(f'{conversation}\n{{"messages": [oops]}}\n{conversation}\n',
                                          encoding="utf-8")
    assert main(["import", "openai", str(tmp_path / "chats.jsonl"), "--out", str(tmp_path / "ws")]) == 1
    results = referee.grade(RULES.replace("eval 1", 'eval "chats-1"') + 'eval "chats-3"\n'
                            'expect 1: not (response contains "rm")\n', tmp_path / "ws")
    assert [r.grading["expectations"][0]["outcome"] for r in results] == ["pass", "pass"]
