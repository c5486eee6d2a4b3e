"""ToolBench's depth-first search keeps, of a run, the chain that ended it
(``train_messages``): when it went back to a state it had tried, it told the model so in
a user turn ("This is not the first time you try this task, all previous trails failed.
... Here are some previous actions candidates: [...]"), listing the calls the earlier
trials made from there, each with its ``function_output``. Those calls ran, and the
chain does not hold them: the run's calls are unknown (``calls-may-be-missing``), so a
check that no such call was made cannot pass. Words that only quote the prompt's first
sentence, or a prompt that lists no candidates, show no call."""

from __future__ import annotations

import json
from pathlib import Path

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: no calls to "search_for_seo_api"\nexpect 2: count(calls) == 1\n'
         'expect 3: exactly 1 harness where .text contains "previous trails failed"\n')
CANDIDATES = json.dumps([{"name": "search_for_seo_api", "arguments": '{\n  "query": "iPhone 14 news"\n}',
                          "function_output": '{"error": "", "response": "{\'results\': []}"}',
                          "mento-carlo-action-value": 0.0}], indent=2)
RETRY = ("This is not the first time you try this task, all previous trails failed.\nBefore you generate my thought "
         "for this state, I will first show you your previous actions for this state, and then you must generate "
         "actions that is different from all of them. Here are some previous actions candidates:\n"
         f"{CANDIDATES}\nagain, your former observation: {{\"error\": \"\", \"response\": \"[]\"}}\n\nRemember you are "
         "now in the intermediate state of a trail, you will first analyze the now state and previous action "
         "candidates, then make actions that is different from all the previous.")


def _chain(turn: str) -> list[dict]:
    call = {"name": "search_b_for_seo_api", "arguments": '{\n  "query": "iPhone 14 news"\n}'}
    return [{"role": "user", "content": "\nFind news on the iPhone 14.\nBegin!\n"},
            {"role": "user", "content": turn, "valid": False},
            {"role": "assistant", "content": "I will try another search.", "function_call": call},
            {"role": "function", "name": "search_b_for_seo_api", "content": '{"error": "", "response": "[]"}'},
            {"role": "assistant", "content": "No news found."}]


def _grade(tmp_path: Path, turn: str) -> tuple[list[str], bool]:
    verdicts, problems = graded(RULES, json_file(tmp_path / "chain.json", _chain(turn)))
    return verdicts, any("warning[calls-may-be-missing]" in problem for problem in problems)


def test_a_state_tried_before_shows_calls_the_chain_does_not_hold(tmp_path: Path):
    assert _grade(tmp_path, RETRY) == (["error", "error", "pass"], True)


def test_the_prompt_in_a_part_of_the_turn_shows_them_too(tmp_path: Path):
    verdicts, _ = graded(RULES, json_file(tmp_path / "chain.json", [
        {**message, "content": [{"type": "text", "text": RETRY}]} if message.get("valid") is False else message
        for message in _chain(RETRY)]))
    assert verdicts[:2] == ["error", "error"]


def test_words_that_only_quote_its_first_sentence_show_none(tmp_path: Path):
    turn = "The log said: This is not the first time you try this task, all previous trails failed. Why?"
    assert _grade(tmp_path, turn) == (["pass", "pass", "pass"], False)
