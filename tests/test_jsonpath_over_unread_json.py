"""A JSONPath query over JSON that could not be read is an ERROR, never "no match".

A Return that looks like a JSON object but is not valid JSON (cut short, say) is
kept as text, and a query over text selects nothing: so
'count(jsonpath(first(calls).return, "$.items[?(@.price > 100)]")) == 0' passed on
a return whose items were never read. Asking it for a field was already an ERROR;
a query over it, or over the calls that hold it, now is one too."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

CUT = ('## [tool_calls] Step 1: shop\nTool: shop\nArgs: {}\nReturn: {"items": [{"price": 150}, \n'
       "Status: success\n")
READ = '## [tool_calls] Step 1: shop\nTool: shop\nArgs: {}\nReturn: {"items": [{"price": 150}]}\nStatus: success\n'


def _outcome(check: str, transcript: str) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/transcript.md": transcript}))
    return f"{verdict.outcome.value}: {verdict.message}"


@pytest.mark.parametrize("check", [
    'count(jsonpath(first(calls).return, "$.items[?(@.price > 100)]")) == 0',
    'no jsonpath(first(calls).return, "$..price")',
    'no jsonpath(first(calls), "$.return..price")',
    'count(jsonpath(calls, "$..price")) == 0',
])
def test_a_query_over_a_return_never_read_is_an_error(check: str):
    found = _outcome(check, CUT)
    assert found.startswith("error") and "could not be read" in found, found


def test_a_query_over_a_return_read_whole_is_decided():
    assert _outcome('count(jsonpath(first(calls).return, "$.items[?(@.price > 100)]")) == 1', READ).startswith("pass")
    assert _outcome('count(jsonpath(calls, "$..price")) == 1', READ).startswith("pass")
