"""A Return of plain text that opens with a bracket is text, not JSON that could not be read.

A log line (``[INFO] build done``, ``[2024-05-01 10:00:00] started``) or a template
(``{{name}}``) opens with a bracket, yet no JSON document starts so: after ``{``
only ``"`` or ``}`` can come, after ``[`` a value. Such a Return was taken for
JSON that could not be read, so a field of it was an ERROR and any
``jsonpath(calls, ...)`` over a run holding one was an ERROR, whatever the query.
It is text now, as ``done`` is. JSON cut short or broken (``{"items": [{"price":
150},``) stays JSON that could not be read, an ERROR, never text."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.checks.access import unread_json
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.run.model import Payload


def _transcript(ret: str) -> str:
    return (f"## [tool_calls] Step 1: build\nTool: build\nArgs: {{}}\nReturn: {ret}\nStatus: success\n\n"
            '## [tool_calls] Step 2: shop\nTool: shop\nArgs: {}\nReturn: {"items": [{"price": 150}]}\n'
            "Status: success\n")


def _outcome(check: str, ret: str) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/transcript.md": _transcript(ret)}))
    return f"{verdict.outcome.value}: {verdict.message}"


TEXT = ["[INFO] build done", "[2024-05-01 10:00:00] started", "{{template}}", "{ not json }",
        "[note] nothing to do", "[fix] done", "[-x] off", "[12ab] ok", "[link](https://example.com)"]
CUT_OR_BROKEN = ['{"items": [{"price": 150},', "{", "[", "[ ", '["a', "[1, 2", "[tr", "[-", "[2024",
                 '{"a": 1,, "b": 2}', "[null, x]", "[1.5e", "{\n  \"items\": ["]


@pytest.mark.parametrize("ret", TEXT)
def test_bracketed_text_is_text(ret: str):
    assert not unread_json(Payload(ret, ret, False, 1))
    assert _outcome('count(jsonpath(calls, "$..price")) == 1', ret).startswith("pass")
    assert _outcome('no calls where .return.level == "ERROR"', ret).startswith("pass")


@pytest.mark.parametrize("ret", CUT_OR_BROKEN)
def test_json_cut_short_or_broken_stays_unread(ret: str):
    assert unread_json(Payload(ret, ret, False, 1))


def test_a_query_over_a_return_cut_short_is_still_an_error():
    found = _outcome('count(jsonpath(calls, "$..price")) == 1', '{"items": [{"price": 150},')
    assert found.startswith("error") and "could not be read" in found, found
    found = _outcome('no calls where .return.level == "ERROR"', "[")
    assert found.startswith("error") and "could not be read" in found, found


@pytest.mark.parametrize("ret", ["{'env': 'prod'}", "{env: 'prod'}", "{ env : 1 }", "['a', 'b']", "[True, None]"])
def test_a_python_or_javascript_literal_is_data_that_could_not_be_read(ret: str):
    assert unread_json(Payload(ret, ret, False, 1))
