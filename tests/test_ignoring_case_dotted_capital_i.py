"""``ignoring case`` takes İ (U+0130) for the capital of i, as a regex's ``/i`` does.

It compared texts by Unicode's full case folding, which folds İ to i and a
combining dot above: "İSTANBUL" held no "istanbul" ignoring case, though
/istanbul/i matched it, so 'not response contains "istanbul" ignoring case' passed
on a response that names the city. İ now folds to i; the foldings that a regex
cannot make, one character to two (ß and ss, ﬁ and fi), still hold for
``ignoring case`` only, as docs/language.md says."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _outcome(response: str, check: str) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/response.md": response}))
    return verdict.outcome.value


@pytest.mark.parametrize("check", [
    'response contains "istanbul" ignoring case',
    'response starts with "istanbul" ignoring case',
    'response == "istanbul" ignoring case',
    'response in ["istanbul"] ignoring case',
    'response matches /istanbul/i',
])
def test_dotted_capital_i_is_the_capital_of_i(check):
    assert _outcome("İSTANBUL", check) == "pass"


def test_a_banned_word_written_with_dotted_capital_i_is_found():
    assert _outcome("Fly to İSTANBUL", 'not response contains "istanbul" ignoring case') == "fail"


def test_the_line_of_a_match_after_dotted_capitals_is_cited():
    program = compile_rules([dsl.parse_rules('eval 1\nexpect: response contains "end" ignoring case\n',
                                             "case.rules")], None)
    run = memory_run({"outputs/response.md": "İİİİ\nİİ END\n"})
    (verdict,) = evaluate(program.evals[0], run)
    assert verdict.outcome.value == "pass"
    assert [e.line for e in verdict.evidence][:1] == [2]


@pytest.mark.parametrize("text, word", [("STRASSE", "straße"), ("FILE", "ﬁle")])
def test_one_to_two_foldings_hold_ignoring_case_only(text, word):
    assert _outcome(text, f'response contains "{word}" ignoring case') == "pass"
    assert _outcome(text, f"response matches /{word}/i") == "fail"
