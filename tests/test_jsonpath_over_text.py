"""A JSONPath query over a value that is always text (or a number) never selects anything.

``response.price`` is refused when the rules are compiled (a text has no field, so
it never holds), but ``jsonpath(response, "$.price")`` was not: over text it
selects nothing, so 'no jsonpath(response, "$.price")' passed on a response
``{"price": 150}``, and 'no jsonpath(file "data.json", "$.price")' (``as json``
left out) passed on a file holding that price. Both are now the same ``bad-path``
error as the field."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.dsl.errors import RulesError
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _codes(check: str) -> list[str]:
    try:
        compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    except RulesError as exc:
        return [d.code for d in exc.diagnostics]
    return []


@pytest.mark.parametrize("check", [
    'no jsonpath(response, "$.price")',
    'count(jsonpath(file "data.json", "$..price")) == 0',
    'no jsonpath(lower(response), "$.price")',
    'no jsonpath(number("3"), "$.price")',
    'any calls have count(jsonpath(text(.return), "$.price")) == 0',
])
def test_a_query_over_text_is_refused(check: str):
    assert _codes(check) == ["bad-path"]


def test_the_error_says_how_to_read_json():
    with pytest.raises(RulesError) as raised:
        compile_rules([dsl.parse_rules('eval 1\nexpect: no jsonpath(file "data.json", "$.price")\n', "c.rules")],
                      None)
    (diagnostic,) = raised.value.diagnostics
    assert "is text" in diagnostic.message and 'as json' in (diagnostic.hint or ""), diagnostic


@pytest.mark.parametrize("check", [
    'count(jsonpath(file "data.json" as json, "$..price")) == 1',
    'count(jsonpath(metrics, "$.tool_calls.*")) >= 0',
    'any calls have count(jsonpath(.return, "$.price")) == 1',
    'any calls have count(jsonpath("$.return.price")) == 1',
    'count(jsonpath(lines(response), "$[0]")) == 1',
])
def test_a_query_over_json_or_a_list_is_compiled(check: str):
    assert _codes(check) == []


def test_a_query_over_a_json_file_is_decided():
    program = compile_rules([dsl.parse_rules('eval 1\nexpect: no jsonpath(file "data.json" as json, "$.price")\n',
                                             "c.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/data.json": '{"price": 150}',
                                                        "outputs/response.md": "done\n"}))
    assert verdict.outcome.value == "fail", verdict.message
