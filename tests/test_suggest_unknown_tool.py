"""A sentence about a tool no run calls is drafted about that tool, never about
another one whose name is close: "travel_cancelReservation is not called" must not
become a rule that forbids travel_bookReservation, nor "... is called" one that
passes on a booking. The closest name is said in the note; a misspelling of a
name the runs call (two letters apart at most) is still drafted as the runs spell it."""

from __future__ import annotations

import pytest

from referee.engine.suggest.draft import draft_sentence
from referee.engine.suggest.facts import RunFacts
from referee.engine.suggest.patterns import load


def draft(sentence: str):
    facts = RunFacts()
    for tool in ("travel_searchFlights", "travel_bookReservation"):
        facts.tools.add(tool)
        facts.fields[tool] = set()
    parts, patterns = load()
    return draft_sentence(1, sentence, facts, parts, patterns)


@pytest.mark.parametrize("sentence, check", [
    ("travel_cancelReservation is not called", 'no calls to "travel_cancelReservation"'),
    ("travel_cancelReservation is called", 'any calls to "travel_cancelReservation" with status success'),
    ("travel_cancelReservation is called exactly once", 'count(calls to "travel_cancelReservation") == 1'),
])
def test_the_draft_names_the_tool_the_sentence_names(sentence, check):
    found = draft(sentence)
    assert found.check == check
    assert "the closest tool the runs call is travel_bookReservation" in " ".join(found.notes)


@pytest.mark.parametrize("sentence, check", [
    ("travel_searchFlight is not called", 'no calls to "travel_searchFlights"'),
    ("travel_bookReservaton is called exactly once", 'count(calls to "travel_bookReservation") == 1'),
])
def test_a_misspelt_tool_is_drafted_as_the_runs_spell_it(sentence, check):
    assert draft(sentence).check == check


def test_a_tool_the_runs_call_with_a_prefix_is_still_found():
    assert draft("bookReservation is not called").check == 'no calls to glob "*bookReservation"'
