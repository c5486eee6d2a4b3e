"""A text test ``ignoring case`` cites the line its words are on. It compares the
texts folded (``values.fold_case``), and folding may lengthen a text (``ß`` folds to ``ss``,
``ﬁ`` to ``fi``): the place found in the folded text is a place in the
text as written only once it is taken back over what folding added."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_half_of_a_characters_folding_is_no_hit():
    """'s' is half of what 'ß' folds to: "ß" holds no "s", as /s/i finds none in it;
    the whole folding is a hit, cited at the ß's line."""
    assert _verdict('response contains "S" ignoring case', "x\nß\n").outcome.value == "fail"
    assert _verdict('not response contains "s" ignoring case', "x\nß\n").outcome.value == "pass"
    verdict = _verdict('response contains "SS" ignoring case', "x\nß\n")
    assert [(e.line, e.quote) for e in verdict.evidence] == [(2, "ß")]


@pytest.mark.parametrize("characters", [
    ["a", "ß", "İ", "ﬃ", "\n", "Σ", "ς", "ŉ"],
    ["M", "u\u0308", "l", "ß", "e\u0301\u0301", "\u1112\u1161\u11ab", "x\u0308"],  # letters and their marks
])
def test_every_edge_of_a_folded_text_is_taken_back_to_its_character(characters):
    from referee.engine.checks.folding import Folded, text_form

    folded = Folded.of("".join(characters), True)
    edges, places = [0], [0]
    for character in characters:
        edges.append(edges[-1] + len(text_form(character, True)))
        places.append(places[-1] + len(character))
    inner = set(range(len(folded.text) + 1)) - set(edges)
    assert folded.text == "".join(text_form(c, True) for c in characters)
    assert [folded.place(at) for at in edges] == places
    assert all(folded.inside(at) is None for at in edges)
    assert all(folded.inside(at) is not None for at in inner) and inner


@pytest.mark.parametrize("response, check, outcome", [
    ("Maße", 'response contains "s" ignoring case', "fail"),
    ("Maße", 'response contains "SS" ignoring case', "pass"),
    ("straße", 'response starts with "stras" ignoring case', "fail"),
    ("straße", 'response starts with "STRASS" ignoring case', "pass"),
    ("Maße", 'response ends with "se" ignoring case', "fail"),
    ("Maße", 'response ends with "SSE" ignoring case', "pass"),
    ("ﬃ", 'response contains "f" ignoring case', "fail"),
    ("ﬃ", 'response contains "FFI" ignoring case', "pass"),
])
def test_a_hit_covers_whole_characters(response, check, outcome):
    assert _verdict(check, response).outcome.value == outcome


def test_a_hit_after_halves_is_found():
    """Hits that split a folding are passed over to a whole one further on."""
    verdict = _verdict('response contains "s" ignoring case', "ß" * 50 + "\nsee\n")
    assert verdict.outcome.value == "pass"
    assert [e.line for e in verdict.evidence] == [2]


@pytest.mark.parametrize("response, check, outcome, line", [
    ("ß" * 5000, 'not response contains "s" ignoring case', "pass", None),
    ("ß" * 5000, 'response contains "sss" ignoring case', "fail", None),
    ("ß" * 5000 + "\ns\n", 'response contains "S" ignoring case', "pass", 2),
    ("ß" * 5000, 'response contains "' + "s" * 101 + '" ignoring case', "fail", None),
    ("x\n" + "ß" * 5000, 'response contains "' + "s" * 100 + '" ignoring case', "pass", 2),
    ("ﬃ" * 5000 + "\nfi\n", 'response contains "fi" ignoring case', "pass", 2),
])
def test_halves_of_characters_are_passed_over_in_linear_work(response, check, outcome, line):
    """Each half of each ß holds an s ignoring case: passed over one search at a time,
    a million ß spent a million steps and the check was an ERROR (here 5,000 of them,
    on a budget of 1,000 steps); the text is now read once."""
    from referee.engine.budget import Limits

    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/response.md": response}), Limits(steps=1000))
    assert verdict.outcome.value == outcome, verdict.message
    assert [e.line for e in verdict.evidence if e.line is not None] == ([line] if line else [])


_PIECES = ["a", "s", "S", "ß", "ẞ", "f", "i", "ﬁ", "ﬃ", "u", "\u0308", "ü", "İ", "\n"]
_FOLDING = st.lists(st.sampled_from(_PIECES), max_size=12).map("".join)


@settings(max_examples=300)
@given(_FOLDING, _FOLDING.filter(bool), st.booleans(), st.integers(0, 30))
def test_the_first_whole_hit_is_the_first_of_all(text: str, part: str, ignore_case: bool, start: int):
    """Found one search at a time or in one pass (from any offset on), the hit is the
    first one covering whole characters, as a search of every offset finds it."""
    from referee.engine.checks.folding import Folded, _first_whole, _scan, _whole, text_form

    folded, wanted = Folded.of(text, ignore_case), text_form(part, ignore_case)
    every = [at for at in range(len(folded.text) - len(wanted) + 1)
             if folded.text.startswith(wanted, at) and _whole(folded, at, len(wanted))]
    assert _first_whole(folded, wanted) == (folded.place(every[0]) if every else -1)
    start = min(start, len(folded.text))
    later = [at for at in every if at >= start]
    assert _scan(folded, wanted, start) == (folded.place(later[0]) if later else -1)
