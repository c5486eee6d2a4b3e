"""A JSONPath sort or function that meets values it cannot take is an ERROR that says so.

jsonpath-ng sorts ``$[/price]`` with Python's ``<`` and runs its functions
(``sub``, ``split``, ``sorted``) with Python's operations: a price written as text
beside one written as a number, or ``sub`` over a null, raised a TypeError, which
reached the verdict as an internal error ("error while evaluating: TypeError: ...").
It is now an ERROR naming the query and what it met."""

from __future__ import annotations

import json

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _outcome(check: str, data) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    run = memory_run({"outputs/data.json": json.dumps(data), "outputs/response.md": "done\n"})
    (verdict,) = evaluate(program.evals[0], run)
    return f"{verdict.outcome.value}: {verdict.message}"


MIXED = [{"price": 150, "note": "x"}, {"price": "a", "note": None}]


@pytest.mark.parametrize("query", ["$[/price]", "$[\\\\price]", "$[*].note.`sub(/x/, y)`"])
def test_a_query_meeting_values_it_cannot_take_is_an_error_that_says_so(query: str):
    found = _outcome(f'count(jsonpath(file "data.json" as json, "{query}")) == 0', MIXED)
    assert found.startswith("error") and "error while evaluating" not in found, found
    assert "cannot be computed" in found and "jsonpath '$[" in found, found


def test_a_sort_of_numbers_is_computed_as_before():
    data = [{"price": 150}, {"price": 20.5}, {"price": 70}]
    check = 'jsonpath(file "data.json" as json, "$[/price][*].price") == [20.5, 70, 150]'
    assert _outcome(check, data).startswith("pass"), _outcome(check, data)
