"""A JSONPath filter that orders text against a number decides nothing.

jsonpath-ng follows RFC 9535, where ``"150" > 100`` is simply false: an item priced
``"150"`` was dropped from ``$[?(@.price > 100)]`` in silence, so
'count(jsonpath(file "x" as json, "$[?(@.price > 100)]")) == 0' passed on it. The
language refuses to order text against a number; where such an ordering decides
what a query selects, the query is now an ERROR that says so."""

from __future__ import annotations

import json

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _outcome(check: str, data) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    run = memory_run({"outputs/data.json": json.dumps(data), "outputs/response.md": "done\n"})
    (verdict,) = evaluate(program.evals[0], run)
    return f"{verdict.outcome.value}: {verdict.message}"


PRICED = [{"sku": "a", "price": "150"}, {"sku": "b", "price": 50}]


def test_a_negative_count_over_a_price_written_as_text_is_an_error():
    found = _outcome('count(jsonpath(file "data.json" as json, "$[?(@.price > 100)]")) == 0', PRICED)
    assert found.startswith("error"), found
    assert "text against a number" in found and "'150'" not in found and '"150"' in found, found


def test_no_over_such_a_filter_is_an_error_too():
    found = _outcome('no jsonpath(file "data.json" as json, "$[?(@.price >= 100)].sku")', PRICED)
    assert found.startswith("error"), found


def test_a_comparison_with_another_query_is_watched_as_well():
    data = {"limit": 100, "items": [{"price": "150"}]}
    found = _outcome('count(jsonpath(file "data.json" as json, "$.items[?(@.price > $.limit)]")) == 0', data)
    assert found.startswith("error"), found


def test_an_ordering_that_decides_nothing_leaves_the_result_sure():
    # the kind drops the pen whatever its price; the book's price is a number
    data = [{"kind": "pen", "price": "150"}, {"kind": "book", "price": 120}]
    check = 'jsonpath(file "data.json" as json, "$[?(@.price > 100 && @.kind == \'book\')].kind") == ["book"]'
    assert _outcome(check, data).startswith("pass"), _outcome(check, data)


def test_numbers_and_texts_alone_are_ordered_as_before():
    data = [{"sku": "a", "price": 150}, {"sku": "b", "price": 50}, {"sku": "c", "name": "no price"}]
    assert _outcome('jsonpath(file "data.json" as json, "$[?(@.price > 100)].sku") == ["a"]', data).startswith("pass")
    words = [{"sku": "a", "grade": "b"}, {"sku": "b", "grade": "d"}]
    assert _outcome('jsonpath(file "data.json" as json, "$[?(@.grade < \'c\')].sku") == ["a"]', words).startswith("pass")


def test_equality_of_text_and_a_number_is_decided_as_the_language_decides_it():
    # "150" is not 150, in the language as in the query: nothing unsure
    found = _outcome('count(jsonpath(file "data.json" as json, "$[?(@.price == 150)]")) == 0', PRICED)
    assert found.startswith("pass"), found
