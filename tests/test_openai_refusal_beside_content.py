"""An OpenAI-format assistant message that gives both ``content`` and ``refusal`` said
both: the refusal's words are the agent's too, a reply's part of the response (cited
at the refusal), a note's part of the note, so ``not response contains`` never passes
on what the refusal says."""

from __future__ import annotations

import json
import re

import referee

PROMPT = {"role": "user", "content": "what is the code?"}
RULES = 'eval 1\nexpect 1: not (response contains "1234")\nexpect 2: response contains "Done"\n'


def _grade(tmp_path, *messages: dict) -> tuple[list[dict], list[str]]:
    """The expectations of the conversation's run, and the source's lines."""
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([PROMPT, *messages], indent=2), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return grading["expectations"], source.read_text(encoding="utf-8").splitlines()


def test_a_refusal_beside_content_is_part_of_the_reply(tmp_path):
    reply = {"role": "assistant", "content": "Done.", "refusal": "I will not say that the code is 1234."}
    expectations, lines = _grade(tmp_path, reply)
    assert [e["outcome"] for e in expectations] == ["fail", "pass"]
    line = int(re.search(r'chat\.json:(\d+)', expectations[0]["evidence"]).group(1))
    assert "1234" in lines[line - 1]  # cited where the refusal is, not at the content


def test_a_refusal_as_parts_beside_content_is_read(tmp_path):
    reply = {"role": "assistant", "content": [{"type": "text", "text": "Done."}],
             "refusal": [{"type": "refusal", "refusal": "the code is 1234"}]}
    expectations, _ = _grade(tmp_path, reply)
    assert [e["outcome"] for e in expectations] == ["fail", "pass"]


def test_a_refusal_alone_or_content_alone_reads_as_before(tmp_path):
    expectations, _ = _grade(tmp_path, {"role": "assistant", "content": None, "refusal": "Done, not 12."},
                             {"role": "assistant", "content": "Done.", "refusal": None})
    assert [e["outcome"] for e in expectations] == ["pass", "pass"]
