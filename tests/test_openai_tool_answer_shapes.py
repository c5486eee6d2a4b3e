"""A tool message's content in a shape the OpenAI importer does not read as text (a
part whose text is no string, a number) is not an empty answer: the call's return is
unknown, and under ``--error-when`` so is its status, so a check on either is an
ERROR. Content given as one text part (an object, not a list) is the text it holds
for ``--error-when``, as a list of one such part is."""

from __future__ import annotations

import json

import pytest

import referee

RULES = ('eval 1\nexpect 1: count(calls with status error) == 0\n'
         'expect 2: all calls to "Read" have .return == ""\n')


def _grade(tmp_path, content: object) -> list[str]:
    messages = [{"role": "user", "content": "clean up"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": content},
                {"role": "assistant", "content": "Done."}]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1", error_when="^Error:")[0].grading
    return [e["outcome"] for e in grading["expectations"]]


UNREAD = {
    "a-part-whose-text-is-an-object": [{"type": "text", "text": {"message": "Error: no such file"}}],
    "a-number": 404,
    # AgentDojo's text block keeps its words under "content" (a real run of its banking
    # suite answers get_balance with [{"type": "text", "content": "1810.0"}]): no empty answer
    "a-text-block-its-words-under-content": [{"type": "text", "content": "Error: no such file"}],
}


@pytest.mark.parametrize("content", UNREAD.values(), ids=UNREAD.keys())
def test_an_answer_not_read_leaves_return_and_status_unknown(tmp_path, content):
    assert _grade(tmp_path, content) == ["error", "error"]


def test_one_text_part_is_its_text_for_error_when(tmp_path):
    assert _grade(tmp_path, {"type": "text", "text": "Error: no such file"})[0] == "fail"


def test_parts_without_words_are_an_empty_answer(tmp_path):
    assert _grade(tmp_path, [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]) == \
        ["pass", "pass"]
