"""A JSONPath query is an ERROR where it looks into JSON that could not be read, not beside it.

A run holding one call whose Args could not be read as JSON made every
``jsonpath(calls, ...)`` an ERROR, even ``$[*].tool``, which never reaches any
Args (``count(calls where .tool == "a")`` was decided). A query is now an ERROR
only where it looks into such a value (a field, an item or a descendant of it, a
filter over it); what it selects elsewhere, and the value selected whole, are
decided."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

TRANSCRIPT = ('## [tool_calls] Step 1: a\nTool: a\nArgs: {"env": "prod", "price": 150,\nReturn: ok\nStatus: success\n\n'
              '## [tool_calls] Step 2: b\nTool: b\nArgs: {"env": "dev"}\nReturn: ok\nStatus: success\n')


def _outcome(check: str) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/transcript.md": TRANSCRIPT}))
    return f"{verdict.outcome.value}: {verdict.message}"


@pytest.mark.parametrize("check", [
    'jsonpath(calls, "$[*].tool") == ["a", "b"]',
    'count(jsonpath(calls, "$[*].args")) == 2',
    'count(jsonpath(calls, "$[?(@.tool == \'b\')].args.env")) == 1',
    'count(jsonpath(calls, "$[?(@.args)]")) == 2',
    'jsonpath(calls, "$[1].args.env") == ["dev"]',
])
def test_a_query_that_never_looks_into_the_unread_args_is_decided(check: str):
    assert _outcome(check).startswith("pass"), _outcome(check)


@pytest.mark.parametrize("check", [
    'count(jsonpath(calls, "$..price")) == 0',
    'no jsonpath(calls, "$[*].args.env")',
    'count(jsonpath(calls, "$[?(@.args.env == \'prod\')]")) == 0',
    'no jsonpath(calls, "$[0].args[*]")',
    'no jsonpath(first(calls).args, "$.price")',
    'count(jsonpath([first(calls).args], "$[*].price")) == 0',
])
def test_a_query_that_looks_into_them_is_an_error(check: str):
    found = _outcome(check)
    assert found.startswith("error") and "could not be read" in found, found
