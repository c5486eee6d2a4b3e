"""A JSONPath filter that orders a value that has no order decides nothing.

RFC 9535 orders two numbers or two texts only: ``null > 100``, ``true > 100`` or a
list against a number is simply false, so ``[?(@.price > 100)]`` dropped an item
priced ``null`` without a word and 'count(jsonpath(..., "$[?(@.price > 100)]")) == 0'
passed on it, while the language makes ``null > 100`` an ERROR. As for text against
a number, where such an ordering decides what a query selects, the query is an
ERROR that says which values met."""

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


@pytest.mark.parametrize("price, kinds", [
    (None, "null against a number"),
    (True, "a boolean against a number"),
    ([200], "a list against a number"),
    ({"amount": 200}, "an object against a number"),
])
def test_a_negative_count_over_a_price_without_order_is_an_error(price, kinds: str):
    data = [{"sku": "a", "price": price}, {"sku": "b", "price": 50}]
    found = _outcome('count(jsonpath(file "data.json" as json, "$[?(@.price > 100)]")) == 0', data)
    assert found.startswith("error") and kinds in found, found


def test_a_number_against_a_null_operand_of_another_query_is_an_error():
    data = {"limit": None, "items": [{"price": 150}]}
    found = _outcome('no jsonpath(file "data.json" as json, "$.items[?(@.price > $.limit)]")', data)
    assert found.startswith("error") and "a number against null" in found, found


def test_a_null_that_decides_nothing_leaves_the_result_sure():
    # the pen is dropped by its kind whatever its price
    data = [{"kind": "pen", "price": None}, {"kind": "book", "price": 120}]
    check = 'jsonpath(file "data.json" as json, "$[?(@.price > 100 && @.kind == \'book\')].kind") == ["book"]'
    assert _outcome(check, data).startswith("pass"), _outcome(check, data)


def test_a_missing_field_and_equality_with_null_are_decided_as_before():
    data = [{"sku": "a", "price": None}, {"sku": "b", "price": 150}, {"sku": "c"}]
    assert _outcome('jsonpath(file "data.json" as json, "$[?(@.price == null)].sku") == ["a"]', data).startswith("pass")
    assert _outcome('jsonpath(file "data.json" as json, "$[?(@.price != null)].sku") == ["b", "c"]',
                    data).startswith("pass")
    priced = [{"sku": "b", "price": 150}, {"sku": "c"}]
    assert _outcome('jsonpath(file "data.json" as json, "$[?(@.price > 100)].sku") == ["b"]', priced).startswith("pass")
