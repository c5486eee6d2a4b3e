"""`referee suggest` on hostile sentences: a budget in characters, never in seconds.

A sentence longer than the drafting limit is left to the grader without being
matched, so the work per sentence is bounded and the drafts do not depend on the
machine. The tests assert the drafts, never a time (the time is measured by
benchmarks/bench_suggest.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.suggest.draft import MAX_SENTENCE, draft_sentence
from referee.engine.suggest.facts import RunFacts
from referee.engine.suggest.patterns import load

HOSTILE = {
    "one long word": "x" * 40_000,
    "identifiers": "tool_name." * 4_000 + " is called",
    "open quote": 'The response contains "' + "a" * 40_000,
    "pairs": "tool is called with " + 'a "b", ' * 6_000,
}


def _draft(sentence: str):
    parts, patterns = load()
    return draft_sentence(1, sentence, RunFacts(), parts, patterns)


def _contains_sentence(length: int) -> str:
    head = 'The response contains "'
    return head + "a" * (length - len(head) - 1) + '"'


def test_a_sentence_at_the_limit_is_drafted_and_one_past_it_is_not():
    at_limit = _contains_sentence(MAX_SENTENCE)
    assert len(at_limit) == MAX_SENTENCE
    assert _draft(at_limit).check == f'response contains "{"a" * (MAX_SENTENCE - 24)}"'
    past = _draft(_contains_sentence(MAX_SENTENCE + 1))
    assert past.check is None
    assert past.notes == (f"longer than {MAX_SENTENCE:,} characters: not drafted",)


def test_the_limit_counts_characters_after_whitespace_is_folded():
    sentence = "The response is not empty" + " " * 5_000
    assert _draft(sentence).check == "response is not empty"


@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_hostile_sentences_of_40000_characters_stay_semantic(shape, tmp_path: Path, capsys):
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"evals": [{"id": 1, "prompt": "p", "expectations": [
        HOSTILE[shape], "The response is not empty"]}]}), encoding="utf-8")
    assert main(["suggest", str(evals)]) == 0
    out = capsys.readouterr().out
    assert "# 1. " in out and "longer than 1,000 characters: not drafted: semantic" in out
    assert "expect 1\n" in out and "expect 2: response is not empty" in out


def test_a_field_after_a_tool_needs_something_between_them():
    # The Chinese field pattern once let a run of letters split into a tool and a
    # field at every place (quadratic); the two names now meet only at a separator.
    assert _draft("saveExpenseDoc 的 docStatus 为 10").check == \
        'any calls to "saveExpenseDoc" with status success have .args.docStatus == 10'
    assert _draft("saveExpenseDoc docStatus 为 10").check == \
        'any calls to "saveExpenseDoc" with status success have .args.docStatus == 10'
    assert _draft("saveExpenseDocdocStatus为10").check is None
