"""A JSONPath filter compares the numbers of a run as the numbers they are.

referee reads a JSON fraction (``150.5``, ``0.1``, ``2.0``) as an exact Decimal, and
jsonpath-ng orders only ints and floats: to it a Decimal was no number, so
``[?(@.price > 100)]`` never kept an item priced 150.5 (and ``== 0.1`` never kept
0.1), and 'count(jsonpath(x, "$.items[?(@.price > 100)]")) == 0' passed on it."""

from __future__ import annotations

import json

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

ITEMS = [{"sku": "a", "price": 150.5}, {"sku": "b", "price": 50}, {"sku": "c", "price": 0.1},
         {"sku": "d", "price": 2.0}]
# A price written as text is ordered against no number (tests/test_jsonpath_text_against_number.py).
TEXT_PRICED = [{"sku": "e", "price": "300"}]


def _outcome(check: str, items: list = ITEMS) -> str:
    transcript = ("## [tool_calls] Step 1: shop\nTool: shop\nArgs: {}\n"
                  f"Return: {json.dumps({'items': items})}\nStatus: success\n")
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/transcript.md": transcript}))
    return f"{verdict.outcome.value}: {verdict.message}"


@pytest.mark.parametrize("check", [
    'jsonpath(first(calls).return, "$.items[?(@.price > 100)].sku") == ["a"]',
    'count(jsonpath(first(calls).return, "$.items[?(@.price > 100)]")) == 1',
    'jsonpath(first(calls).return, "$.items[?(@.price == 0.1)].sku") == ["c"]',
    'jsonpath(first(calls).return, "$.items[?(@.price >= 2)].sku") == ["a", "b", "d"]',
    'jsonpath(first(calls).return, "$.items[?(@.price < 1.5)].sku") == ["c"]',
])
def test_a_filter_compares_fractions_as_numbers(check: str):
    assert _outcome(check).startswith("pass"), _outcome(check)


def test_a_filter_compares_a_text_price_as_text():
    check = 'jsonpath(first(calls).return, "$.items[?(@.price == \'300\')].sku") == ["e"]'
    assert _outcome(check, ITEMS + TEXT_PRICED).startswith("pass"), _outcome(check, ITEMS + TEXT_PRICED)


def test_a_negative_check_over_a_filter_sees_a_fraction():
    check = 'count(jsonpath(first(calls).return, "$.items[?(@.price > 100)]")) == 0'
    assert _outcome(check).startswith("fail"), _outcome(check)


def test_the_values_selected_stay_exact():
    assert _outcome('jsonpath(first(calls).return, "$.items[?(@.price < 1)].price") == [0.1]').startswith("pass")
    assert _outcome('jsonpath(first(calls).return, "$..price")[0] == number("150.5")').startswith("pass")
    check = 'text(jsonpath(first(calls).return, "$.items[?(@.price > 1)].price")) == "[150.5,50,2]"'
    assert _outcome(check).startswith("pass"), _outcome(check)


def test_a_fraction_beyond_a_float_is_given_back_whole():
    transcript = ("## [tool_calls] Step 1: shop\nTool: shop\nArgs: {}\n"
                  'Return: {"items": [{"price": 1.00000000000000000001}]}\nStatus: success\n')
    checks = ['jsonpath(first(calls).return, "$.items[?(@.price >= 1)].price") == [1.00000000000000000001]',
              'jsonpath(first(calls).return, "$.items[?(@.price >= 1)].price")[0] != 1']
    program = compile_rules([dsl.parse_rules("eval 1\n" + "".join(f"expect: {c}\n" for c in checks), "c.rules")],
                            None)
    verdicts = evaluate(program.evals[0], memory_run({"outputs/transcript.md": transcript}))
    assert [v.outcome.value for v in verdicts] == ["pass", "pass"], [v.message for v in verdicts]


def test_the_arithmetic_of_a_query_stays_exact():
    transcript = ("## [tool_calls] Step 1: calc\nTool: calc\n"
                  'Args: {"a": 0.1, "b": 0.2, "i": 3}\nStatus: success\n')
    checks = ['jsonpath(first(calls).args, "$.a * 3") == [0.3]', 'jsonpath(first(calls).args, "$.a + $.b") == [0.3]',
              'jsonpath(first(calls).args, "$.i * 2") == [6]', 'jsonpath(first(calls).args, "$.b - $.a") == [0.1]']
    program = compile_rules([dsl.parse_rules("eval 1\n" + "".join(f"expect: {c}\n" for c in checks), "c.rules")],
                            None)
    verdicts = evaluate(program.evals[0], memory_run({"outputs/transcript.md": transcript}))
    assert [v.outcome.value for v in verdicts] == ["pass"] * 4, [v.message for v in verdicts]
