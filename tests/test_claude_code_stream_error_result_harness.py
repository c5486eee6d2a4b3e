"""A stream-json result record that does not say its turn succeeded holds what Claude
Code said of the error (``errors``: "No conversation found with session ID: ...",
"Prompt is too long"; and, when ``is_error`` is true, ``result``): the harness's own
words, harness text, so ``no harness where .text contains "Prompt is too long"`` fails
on it instead of passing. A successful result's ``result`` is the agent's reply again,
never harness text. Built from a real capture (``fixtures/real/claude-code/
stream-compaction/claude_compact_empty_2.1.285.jsonl``, SOURCE.md) whose result record
(line 3) is given the fields such an error result holds."""

from __future__ import annotations

import json
from pathlib import Path

import referee

STREAM = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-compaction" /
          "claude_compact_empty_2.1.285.jsonl")
RULES = ('eval 1\nexpect 1: no harness where .text contains "Prompt is too long"\n'
         'expect 2: no harness where .text contains "No conversation found"\nexpect 3: count(harness) == 1\n')


def _outcomes(tmp_path: Path, **result) -> list[str]:
    records = [json.loads(line) for line in STREAM.read_text(encoding="utf-8").splitlines()]
    records[2].update(result)
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return [e["outcome"] for e in referee.grade(RULES, source, as_eval="1")[0].grading["expectations"]]


def test_the_words_of_an_error_result_are_harness_text(tmp_path):
    outcomes = _outcomes(tmp_path, subtype="error_during_execution", is_error=True, result="Prompt is too long",
                         errors=["No conversation found with session ID: 1"])
    assert outcomes == ["fail", "fail", "fail"]


def test_errors_of_a_run_stopped_by_its_turn_limit_are_harness_text(tmp_path):
    outcomes = _outcomes(tmp_path, subtype="error_max_turns", is_error=False, errors=["No conversation found"])
    assert outcomes == ["pass", "fail", "fail"]


def test_a_successful_result_adds_no_harness_text(tmp_path):
    assert _outcomes(tmp_path) == ["pass", "pass", "pass"]
    assert _outcomes(tmp_path, result="Prompt is too long") == ["pass", "pass", "pass"]


def test_an_error_result_that_names_the_message_claude_code_wrote_adds_it_once(tmp_path):
    # an API error: Claude Code writes it in the model's place (line 2 here) and its result
    # (is_error true) names the same words: one thing the harness said, never two
    rules = 'eval 1\nexpect 1: exactly 1 harness where .text contains "No messages to compact"\n'
    records = [json.loads(line) for line in STREAM.read_text(encoding="utf-8").splitlines()]
    records[2].update(is_error=True, result="Error: No messages to compact")
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert [e["outcome"] for e in referee.grade(rules, source, as_eval="1")[0].grading["expectations"]] == ["pass"]
