"""JSON that gives a key twice, with two different values, is not read as either.

JSON readers differ on ``{"env": "staging", "env": "prod"}``: some take the first
value, some the last (Python's, referee's). So 'no calls where .args.env ==
"staging"' passed on such Args, and 'count(jsonpath(file "data.json" as json,
"$.items[*]")) == 0' passed on ``{"items": [{"price": 150}], "items": []}``. Such
JSON is now refused as invalid, with the key and the line where it is given again:
Args or a Return holding it are JSON that could not be read (a field of them is an
ERROR), a file read as JSON is not usable. A key given twice with the same value
leaves nothing to choose, and is read."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.run.safejson import json_value, parse_json


def _outcome(check: str, files: dict[str, str]) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/response.md": "done\n", **files}))
    return f"{verdict.outcome.value}: {verdict.message}"


def _transcript(args: str) -> dict[str, str]:
    return {"outputs/transcript.md": f"## [tool_calls] Step 1: deploy\nTool: deploy\nArgs: {args}\nReturn: ok\n"
                                     "Status: success\n"}


def test_args_giving_a_key_twice_are_not_read():
    found = _outcome('no calls where .args.env == "staging"', _transcript('{"env": "staging", "env": "prod"}'))
    assert found.startswith("error") and "could not be read as JSON" in found, found


def test_a_file_giving_a_key_twice_is_not_usable():
    files = {"outputs/data.json": '{\n  "items": [{"price": 150}],\n  "items": []\n}'}
    found = _outcome('count(jsonpath(file "data.json" as json, "$.items[*]")) == 0', files)
    assert found.startswith("error") and '"items" given twice' in found and "line 3" in found, found


@pytest.mark.parametrize("text", ['{"a": {"b": 1, "b": 2}}', '[{"a": 1, "a": true}]', '{"a": [1], "a": [1, 2]}'])
def test_a_nested_key_given_twice_with_two_values_is_refused(text: str):
    assert json_value(text) is None
    result = parse_json(text, "x.json")
    assert not result.ok and result.problem is not None and "given twice" in result.problem.message


def test_a_key_given_twice_with_the_same_value_is_read():
    assert json_value('{"env": "prod", "env": "prod"}') == ({"env": "prod"},)
    found = _outcome('no calls where .args.env == "staging"', _transcript('{"env": "prod", "env": "prod"}'))
    assert found.startswith("pass"), found
