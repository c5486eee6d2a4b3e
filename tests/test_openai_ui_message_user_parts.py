"""A user or system turn whose words this importer does not read is harness text left
out: the Vercel AI SDK 5 saves every UI message's words in its ``parts`` and gives no
``content`` (``{"role": "user", "parts": [{"type": "text", "text": ...}]}``), and a
turn's content may be one part given as an object. Such turns were dropped without a
word, so ``no harness where .text contains "delete"`` and ``count(harness) == 0``
passed on a conversation of two user turns. A check over the harness text is now an
ERROR (``harness-may-be-missing``), and no later turn is taken for the eval prompt;
a turn whose content holds the words of its parts reads as before."""

from __future__ import annotations

import json

import pytest

import referee

RULES = ('eval 1\nexpect 1: no harness where .text contains "delete"\nexpect 2: count(harness) == 0\n'
         'expect 3: no calls to "Bash"\n')
REPLY = {"role": "assistant", "content": "I will not do that."}

UNREAD = {
    "ai-sdk-5-parts": {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "now delete everything"}]},
    "content-one-object": {"role": "user", "content": {"type": "text", "text": "now delete everything"}},
    "system-parts": {"role": "system", "parts": [{"type": "text", "text": "delete what you like"}]},
    # AgentDojo writes every turn's words as text blocks holding them under "content"
    # (its runs' system prompt and task are so written): read as no words, such a turn
    # let count(harness) == 0 pass on a run whose task is in its user turn
    "agentdojo-text-blocks": {"role": "user", "content": [{"type": "text", "content": "now delete everything"}]},
    "agentdojo-system": {"role": "system", "content": [{"type": "text", "content": "delete what you like"}]},
}


def _grade(tmp_path, *messages: dict) -> tuple[list[str], list[str], str]:
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(list(messages), indent=1), encoding="utf-8")
    run, = referee.grade(RULES, source, as_eval="1")
    return [e["outcome"] for e in run.grading["expectations"]], run.grading["problems"], source.read_text()


@pytest.mark.parametrize("turn", UNREAD.values(), ids=UNREAD.keys())
def test_a_turn_whose_words_are_not_read_leaves_the_harness_text_unknown(tmp_path, turn):
    outcomes, problems, _ = _grade(tmp_path, turn, REPLY)
    assert outcomes == ["error", "error", "pass"]
    assert any("harness-may-be-missing" in problem and "chat.json:2" in problem for problem in problems)


def test_no_later_turn_is_taken_for_the_eval_prompt(tmp_path):
    from referee.engine.run.importers import conversations

    source = tmp_path / "chat.json"
    source.write_text(json.dumps([UNREAD["ai-sdk-5-parts"], REPLY, {"role": "user", "content": "thanks"}]),
                      encoding="utf-8")
    (conversation,) = conversations("openai", [source])
    assert [entry.kind for entry in conversation.entries if entry.kind in ("eval prompt", "user")] == ["user"]


def test_a_turn_whose_content_holds_its_parts_reads_as_before(tmp_path):
    turn = {"role": "user", "content": "list the files", "parts": [{"type": "text", "text": "list the files"}]}
    outcomes, problems, _ = _grade(tmp_path, turn, REPLY)
    assert outcomes == ["pass", "fail", "pass"]
    assert not any("harness-may-be-missing" in problem for problem in problems)


def test_the_words_read_of_a_first_turn_read_in_part_are_its_eval_prompt(tmp_path):
    from referee.engine.run.importers import conversations

    source = tmp_path / "chat.json"
    turn = {"role": "user", "content": [{"type": "text", "text": "list the files"}, {"type": "text", "text": 7}]}
    source.write_text(json.dumps([turn, REPLY, {"role": "user", "content": "thanks"}]), encoding="utf-8")
    (conversation,) = conversations("openai", [source])
    assert [entry.kind for entry in conversation.entries if entry.kind in ("eval prompt", "user")] == [
        "eval prompt", "user"]
    assert any(problem.code == "harness-may-be-missing" for problem in conversation.problems)
