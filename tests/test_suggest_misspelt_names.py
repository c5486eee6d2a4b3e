"""A name one or two letters from a tool the runs call is a misspelling of it only
when its words are that tool's words.

'travel_setInvoice is called' was drafted as a check of travel_getInvoice: one
letter apart, so taken for a misspelling, while set and get are two verbs and two
tools. A word now counts as misspelt when it keeps its first letter and has four
letters or more; the draft then names the tool the sentence names, with the
closest one in its note."""

from __future__ import annotations

import pytest

from referee.engine.suggest.draft import draft_sentence
from referee.engine.suggest.facts import RunFacts, misspelt
from referee.engine.suggest.patterns import load


def draft(sentence: str, *tools: str):
    facts = RunFacts()
    for tool in tools:
        facts.tools.add(tool)
        facts.fields[tool] = set()
    parts, patterns = load()
    return draft_sentence(1, sentence, facts, parts, patterns)


@pytest.mark.parametrize("name, known", [
    ("setInvoice", "getInvoice"), ("travel_setInvoice", "travel_getInvoice"), ("putItem", "getItem"),
    ("addUser", "andUser"), ("upsertDoc", "insertDoc"), ("readFile", "readFileA1"),
])
def test_another_word_is_not_a_misspelling(name: str, known: str):
    assert not misspelt(name, known)


@pytest.mark.parametrize("name, known", [
    ("travel_searchFlight", "travel_searchFlights"), ("bookReservaton", "bookReservation"),
    ("getInvoce", "getInvoice"), ("BookReservation", "bookReservation"), ("book_reservation", "bookReservation"),
    ("saveexpensedoc", "saveExpenseDoc"),
])
def test_a_misspelling_still_is_one(name: str, known: str):
    assert misspelt(name, known)


def test_the_draft_names_the_tool_the_sentence_names():
    found = draft("travel_setInvoice is called exactly once", "travel_getInvoice")
    assert found.check == 'count(calls to "travel_setInvoice") == 1'
    assert "the closest tool the runs call is travel_getInvoice" in " ".join(found.notes)


def _facts(fields: set[str]) -> RunFacts:
    facts = RunFacts()
    facts.tools.add("search")
    facts.fields["search"] = set(fields)
    facts.returns["search"] = set(fields)
    return facts


def test_a_field_that_is_another_word_is_kept_as_the_sentence_names_it():
    # 'maxPrice' was drafted as minPrice: difflib finds them close, and nothing asked more
    from referee.engine.suggest.facts import resolve_field, resolve_return_field

    facts = _facts({"minPrice"})
    for found in (resolve_field("maxPrice", facts, "search"), resolve_return_field("maxPrice", facts, "search")):
        assert found.text == "maxPrice" and "the closest is minPrice" in (found.note or ""), found
    assert resolve_field("minPrise", facts, "search").text == "minPrice"
    assert resolve_return_field("minPrise", facts, "search").text == "minPrice"
