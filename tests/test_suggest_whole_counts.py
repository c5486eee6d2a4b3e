"""A count of words or characters is a whole number: "under 1.000 words" writes a
thousand with a point between the groups (as much of Europe does), and "under 0.5
words" means no count at all, so neither is drafted as a limit of one word or
less; it is left to the grader. Grouped by commas, or plain, it is drafted."""

from __future__ import annotations

import pytest

from referee.engine.suggest.draft import draft_sentence
from referee.engine.suggest.facts import RunFacts
from referee.engine.suggest.patterns import load


def draft(sentence: str) -> str | None:
    parts, patterns = load()
    return draft_sentence(1, sentence, RunFacts(), parts, patterns).check


@pytest.mark.parametrize("sentence", [
    "The summary is under 1.000 words",
    "The summary is under 0.5 words",
    "The summary is between 1.000 and 2.000 words",
    "The summary is 2.500 words or fewer",
    "The Notes section is under 1.000 words",
    "摘要不超过 1.000 字",
    "要約は1.000文字以内",
])
def test_a_count_with_a_point_in_it_is_not_drafted(sentence):
    assert draft(sentence) is None


@pytest.mark.parametrize("sentence, check", [
    ("The summary is under 1,000 words", "length(words(response)) <= 1000"),
    ("The summary is between 100 and 2,000 words", "length(words(response)) between 100 and 2000"),
    ("摘要不超过 250 字", "length(response) <= 250"),
])
def test_a_whole_count_is_drafted(sentence, check):
    assert draft(sentence) == check
