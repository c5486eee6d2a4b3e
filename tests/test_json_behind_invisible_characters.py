"""Args that are JSON behind an invisible character are JSON that could not be read, not text.

``Args: {"env": "prod"}`` with a byte order mark or a zero-width space before the
brace is not JSON to the record grammar, and was read as plain text: a field of it
was "no field", so 'no calls where .args.env == "prod"' passed on a call a reader
sees deploying to prod. Such a value now looks like JSON that could not be read: a
field of it is an ERROR. Text behind such a character stays text."""

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


@pytest.mark.parametrize("mark", ["\ufeff", "\u200b", "\u2060", "\u200b \ufeff"])
def test_json_behind_an_invisible_character_is_not_text(mark: str):
    found = _outcome('no calls where .args.env == "prod"', mark + '{"env": "prod"}')
    assert found.startswith("error") and "could not be read as JSON" in found, found


def test_text_behind_one_is_text():
    assert _outcome('no calls where .args.env == "prod"', "\u200bdeploy prod").startswith("pass")
