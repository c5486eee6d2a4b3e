"""A text test ``ignoring case`` cites the line its words are on. It compares the
texts folded (``values.fold_case``), and folding may lengthen a text (``ß`` folds to ``ss``,
``ﬁ`` to ``fi``): the place found in the folded text is a place in the
text as written only once it is taken back over what folding added."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

RESPONSE = "Straße und Maß: " + "ß" * 20 + "\nline two\nfoo bar\nx\ny\nz\nlast BAR\n"


def _verdict(check: str, response: str = RESPONSE):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/response.md": response}))
    return verdict


@pytest.mark.parametrize("check, line, quote", [
    ('response contains "FOO" ignoring case', 3, "foo bar"),
    ('response contains "LINE TWO" ignoring case', 2, "line two"),
    ('response contains "MASS" ignoring case', 1, "Straße und Maß: " + "ß" * 20),
    ('response ends with "bar\\n" ignoring case', 7, "last BAR"),
    ('response starts with "STRASSE" ignoring case', 1, "Straße und Maß: " + "ß" * 20),
])
def test_a_hit_ignoring_case_is_cited_where_it_is(check: str, line: int, quote: str):
    verdict = _verdict(check)
    assert verdict.outcome.value == "pass", verdict.message
    assert [(e.line, e.quote) for e in verdict.evidence] == [(line, quote)]
    assert f"response.md:{line})" in verdict.message


def test_a_fold_inside_a_character_cites_that_character():
    """'s' is half of what 'ß' folds to: the hit is the ß, on its own line."""
    verdict = _verdict('response contains "S" ignoring case', "x\nß\n")
    assert [(e.line, e.quote) for e in verdict.evidence] == [(2, "ß")]


def test_every_offset_of_a_folded_text_is_taken_back_to_its_character():
    from referee.engine.checks.text import unfolded
    from referee.engine.values import fold_case

    text = "aßİﬁ\nΣς"
    folded = fold_case(text)
    owners = [index for index, char in enumerate(text) for _ in fold_case(char)]
    assert [unfolded(text, at) for at in range(len(folded) + 1)] == owners + [len(text)]
