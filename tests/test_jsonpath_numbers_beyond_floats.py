"""A JSONPath filter ordering numbers beyond a float's range is an ERROR where it decides.

A filter compares a run's fractions as floats (``engine.checks.jsonpath_numbers``),
and a number beyond 1e308 is an infinite float: ``3E+400 > 2E+400`` was false to
the filter, so 'count(jsonpath(x, "$[?(@.a > @.b)]")) == 0' passed on an item the
language, comparing exactly, finds greater. Such an ordering is now unsure, as one
of text against a number is: an ERROR where it decides what is selected."""

from __future__ import annotations

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _outcome(check: str, data: str) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/data.json": data, "outputs/response.md": "x\n"}))
    return f"{verdict.outcome.value}: {verdict.message}"


def test_an_ordering_of_numbers_beyond_floats_is_an_error():
    check = 'count(jsonpath(file "data.json" as json, "$[?(@.a > @.b)]")) == 0'
    found = _outcome(check, '[{"a": 3E+400, "b": 2E+400}]')
    assert found.startswith("error"), found


def test_numbers_within_floats_and_infinity_are_ordered_as_before():
    data = '[{"a": 3E+300, "b": 2E+300}, {"a": Infinity, "b": 1}]'
    assert _outcome('count(jsonpath(file "data.json" as json, "$[?(@.a > @.b)]")) == 2', data).startswith("pass")
