"""What a JSONPath query selects is cited at the line where it is written.

A query's matches were all cited at the line its value starts on (a Return's
``Return: {`` line), with the quote of a match written lines below, or, over
``calls``, at no line at all ("outputs/transcript.md: 150"), while a field read
with a path (``.return.items[1].price``) is cited at its own line. A match is now
cited where a path to it would be: its own line, and its call's step."""

from __future__ import annotations

import referee
from referee.engine.run.memory import memory_run

TRANSCRIPT = ('## [tool_calls] Step 1: shop\nTool: shop\nArgs: {}\nReturn: {\n  "items": [\n    {"price": 10},\n'
              '    {"price": 150}\n  ]\n}\nStatus: success\n')


def _evidence(check: str) -> tuple[list[tuple], str]:
    (result,) = referee.grade(f"eval 1\nexpect: {check}\n", memory_run({"outputs/transcript.md": TRANSCRIPT}))
    (item,) = result.expectations
    return [(e["file"], e["line"], e["step"]) for e in item["evidence_location"]], item["evidence"]


def test_a_match_in_a_return_is_cited_at_its_own_line():
    found, evidence = _evidence('no jsonpath(first(calls).return, "$.items[?(@.price > 100)]")')
    assert found == [("outputs/transcript.md", 7, 1)], found
    assert 'outputs/transcript.md:7: {"price":150}' in evidence, evidence


def test_matches_over_calls_are_cited_at_their_lines_and_steps():
    found, evidence = _evidence('no jsonpath(calls, "$..price")')
    assert found == [("outputs/transcript.md", 6, 1), ("outputs/transcript.md", 7, 1)], found
    assert "outputs/transcript.md:6: 10" in evidence and "outputs/transcript.md:7: 150" in evidence, evidence


def test_a_computed_value_is_cited_at_the_value_queried():
    # jsonpath-ng gives a function's value no path: it stays at the value the query ran on
    found, _ = _evidence('no jsonpath(first(calls).return, "$.items.`len`")')
    assert found == [("outputs/transcript.md", 4, 1)], found
