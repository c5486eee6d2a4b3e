"""A case-insensitive pattern means what the ``regex`` module makes of it on the
Turkish letters İ (U+0130) and ı (U+0131) too.

The ``regex`` module takes ``/i/i`` to match "İ" and ``/I/i`` to match "ı"; RE2,
which runs the patterns it can, does not. So ``x matches /istanbul/i`` failed on
"İSTANBUL", and ``not x matches /istanbul/i`` passed, while the same pattern
with a lookbehind (run by ``regex``) matched. A case-insensitive pattern now runs
on ``regex`` for a text holding either letter; other texts stay on RE2."""

from __future__ import annotations

import pytest
import regex

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.regexes import compile_regex
from referee.engine.run.memory import memory_run

LETTERS = "iIıİ"


@pytest.mark.parametrize("pattern, flags", [
    ("i", "i"), ("I", "i"), ("ı", "i"), ("İ", "i"), ("[a-z]", "i"), ("[h-j]", "i"), ("[^i]", "i"),
    ("[ı]", "i"), ("[^ı]", "i"), ("(?i:i)", ""), ("(?i)I", ""), ("x|i", "i"), ("^i$", "im"),
])
def test_each_letter_matches_as_the_reference_says(pattern: str, flags: str):
    compiled = compile_regex(pattern, flags)
    bits = regex.IGNORECASE * ("i" in flags) | regex.MULTILINE * ("m" in flags)
    for letter in LETTERS:
        for text in (letter, f"a{letter}b"):
            found = compiled.search(text, "a text") is not None
            assert found == (regex.search(pattern, text, bits) is not None), (pattern, flags, text)


def test_not_matches_ignoring_case_fails_on_the_dotted_capital():
    program = compile_rules([dsl.parse_rules('eval 1\nexpect: not response matches /istanbul/i\n'
                                             'expect: response matches /istanbul/i\n', "r.rules")], None)
    negated, plain = evaluate(program.evals[0], memory_run({"outputs/response.md": "Flights to İSTANBUL\n"}))
    assert negated.outcome.value == "fail", negated.message
    assert plain.outcome.value == "pass", plain.message


def test_a_pattern_that_minds_case_stays_as_it_was():
    assert compile_regex("i", "").search("İ", "a text") is None
    assert compile_regex("istanbul", "i").search("ISTANBUL", "a text") is not None
