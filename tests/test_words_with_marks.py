"""``words(x)`` keeps a word whole when it holds combining marks: the vowel signs of
Hindi, the vowel points of Arabic and Hebrew, an accent written as a letter then
U+0301 (NFD). Each mark is part of the word it is written on, as the rules' ``\\w``
takes it (docs/limits.md: the ``regex`` module's Unicode classes)."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _outcomes(response: str, checks: list[str]) -> list[str]:
    rules = "eval 1\n" + "".join(f"expect: {check}\n" for check in checks)
    program = compile_rules([dsl.parse_rules(rules, "words.rules")], None)
    run = memory_run({"outputs/response.md": response})
    return [verdict.outcome.value for verdict in evaluate(program.evals[0], run)]


@pytest.mark.parametrize("first, second", [
    ("हिन्दी", "भाषा"),          # Devanagari vowel signs and virama (Mn, Mc)
    ("مُحَمَّد", "كَتَبَ"),           # Arabic harakat
    ("שָׁלוֹם", "עוֹלָם"),          # Hebrew niqqud
    ("Cafe\u0301", "cre\u0300me"),  # Latin written decomposed (NFD)
])
def test_a_word_with_combining_marks_is_one_word(first: str, second: str):
    checks = ["count(words(response)) == 2",
              f'no words(response) where . == "{first}"',
              f'"{second}" in words(response)']
    assert _outcomes(f"{first} {second}\n", checks) == ["pass", "fail", "pass"]


def test_words_without_marks_are_read_as_before():
    checks = ['words(response) == ["don\'t", "stop", "1,250.5", "e.g", "naïve", "日本語のテキスト", "x"]']
    assert _outcomes("don't stop: 1,250.5 e.g. naïve 日本語のテキスト_x\n", checks) == ["pass"]
