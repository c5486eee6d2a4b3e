"""A JSONPath query computes with numbers only.

jsonpath-ng computes with Python's operators whatever the values are: on a price
written as text, '$.price * 2' gave the text "150150", and '$.price + $.fee' gave
nothing at all (the TypeError swallowed), so 'count(jsonpath(...)) == 0' passed;
'$.items[*].price * $.items[*].qty' gave nothing when one item had no quantity.
Each of those is now an ERROR that says which values met; numbers compute as
before, and an operand that selects nothing still computes nothing."""

from __future__ import annotations

import json

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

DATA = {"price": "150", "fee": 2, "rate": 0.1, "items": [{"price": 150, "qty": 2}, {"price": 50}]}


def _outcome(check: str) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/d.json": json.dumps(DATA)}))
    return f"{verdict.outcome.value}: {verdict.message}"


@pytest.mark.parametrize("check, said", [
    ('count(jsonpath(file "d.json" as json, "$.price + $.fee")) == 0', 'meets "150"'),
    ('jsonpath(file "d.json" as json, "$.price * 2") == ["150150"]', 'meets "150"'),
    ('count(jsonpath(file "d.json" as json, "$.items[*].price * $.items[*].qty")) == 0', "pairs 2 values with 1"),
])
def test_arithmetic_on_what_is_not_a_number_is_an_error(check: str, said: str):
    found = _outcome(check)
    assert found.startswith("error") and said in found, found


@pytest.mark.parametrize("check", [
    'jsonpath(file "d.json" as json, "$.fee * 3") == [6]',
    'jsonpath(file "d.json" as json, "$.rate * 3") == [0.3]',
    'jsonpath(file "d.json" as json, "$.items[0].price * $.items[0].qty") == [300]',
    'count(jsonpath(file "d.json" as json, "$.missing * 3")) == 0',
])
def test_arithmetic_on_numbers_is_as_before(check: str):
    assert _outcome(check).startswith("pass"), _outcome(check)
