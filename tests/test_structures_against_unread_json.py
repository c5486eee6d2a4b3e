"""Args or a Return that could not be read as JSON never equal, include or match a structure in silence.

``Args: {"env": "prod",}`` (invalid JSON) is kept as text. Asking it for a field
was an ERROR, but comparing it whole with an object was not: ``.args == {"env":
"prod"}`` failed as "text vs object", so 'no calls where .args == {"env": "prod"}',
'no calls where .args includes {...}', 'not first(calls).args matches {...}' and
'not first(calls) includes {"args": {...}}' passed on arguments never read. Such a
comparison is now an ERROR; compared with text, the value is its text as before."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _outcome(check: str, args: str) -> str:
    transcript = f"## [tool_calls] Step 1: deploy\nTool: deploy\nArgs: {args}\nReturn: ok\nStatus: success\n"
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/transcript.md": transcript}))
    return f"{verdict.outcome.value}: {verdict.message}"


UNREAD = '{"env": "prod",}'


@pytest.mark.parametrize("check", [
    'no calls where .args == {"env": "prod"}',
    'count(calls where .args == {"env": "prod"}) == 0',
    'first(calls).args != {"env": "prod"}',
    'first(calls).args == {"env": "prod"}',
    'no calls where .args includes {"env": "prod"}',
    'not first(calls).args matches {"env": "prod"}',
    'not first(calls) includes {"args": {"env": "prod"}}',
    'not {"env": "prod"} in [first(calls).args]',
    'first(calls).args != null',
])
def test_a_structure_against_args_never_read_is_an_error(check: str):
    found = _outcome(check, UNREAD)
    assert found.startswith("error") and "could not be read as JSON" in found, found


@pytest.mark.parametrize("check", [
    'first(calls).args == "{\\"env\\": \\"prod\\",}"',
    'first(calls).args contains "prod"',
    'no calls where .args contains "staging"',
    'first(calls).args matches /prod/',
])
def test_as_text_it_is_its_text(check: str):
    assert _outcome(check, UNREAD).startswith("pass"), _outcome(check, UNREAD)


@pytest.mark.parametrize("check", [
    'no calls where .args == {"env": "staging"}',
    'first(calls).args includes {"env": "prod"}',
    'first(calls).args matches {"env": "prod"}',
])
def test_args_read_whole_are_compared_as_before(check: str):
    assert _outcome(check, '{"env": "prod"}').startswith("pass"), _outcome(check, '{"env": "prod"}')


def test_plain_text_args_are_still_not_an_object():
    assert _outcome('no calls where .args == {"env": "prod"}', "deploy to prod").startswith("pass")


def test_a_list_that_includes_the_structure_elsewhere_is_decided():
    transcript = ('## [tool_calls] Step 1: a\nTool: a\nArgs: {"env": "prod",\nReturn: ok\nStatus: success\n\n'
                  '## [tool_calls] Step 2: b\nTool: b\nArgs: {"env": "dev"}\nReturn: ok\nStatus: success\n')

    def outcome(check: str) -> str:
        program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
        (verdict,) = evaluate(program.evals[0], memory_run({"outputs/transcript.md": transcript}))
        return f"{verdict.outcome.value}: {verdict.message}"

    assert outcome('jsonpath(calls, "$[*].args") includes [{"env": "dev"}]').startswith("pass")
    assert outcome('{"env": "dev"} in jsonpath(calls, "$[*].args")').startswith("pass")
    assert outcome('not jsonpath(calls, "$[*].args") includes [{"env": "staging"}]').startswith("error")
    assert outcome('not {"env": "staging"} in jsonpath(calls, "$[*].args")').startswith("error")
