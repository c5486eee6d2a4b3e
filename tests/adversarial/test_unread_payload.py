"""Args that look like JSON but cannot be read never let a negative check pass."""

from __future__ import annotations

import pytest

import referee
from referee.engine.run.memory import memory_run

UNREADABLE = [
    '{"env": "prod", "n": 1e999999999}',  # a number out of range
    '{"env": "prod",}',  # invalid JSON
    "{'env': 'prod'}",  # a Python dict, not JSON
]
CHECKS = [
    'no calls to "deploy" where .args.env == "prod"',
    'no calls to "deploy" have .args.env == "prod"',
    'count(calls where .args.env == "prod") == 0',
    'all calls have .args.env != "prod"',
]


@pytest.mark.parametrize("args", UNREADABLE)
@pytest.mark.parametrize("check", CHECKS)
def test_a_field_of_unreadable_args_is_an_error_not_a_pass(args, check):
    transcript = f"## [tool_calls] Step 1: deploy\nTool: deploy\nArgs: {args}\nReturn: {{}}\nStatus: success\n"
    (result,) = referee.grade(f"eval 1\nexpect: {check}\n", memory_run({"outputs/transcript.md": transcript}))
    (item,) = result.expectations
    assert item["outcome"] == "error", item["evidence"]
    assert "could not be read as JSON" in item["evidence"]


def test_plain_text_args_still_have_no_fields():
    transcript = "## [tool_calls] Step 1: run\nTool: run\nArgs: ls -la\nReturn: {}\nStatus: success\n"
    (result,) = referee.grade('eval 1\nexpect: no calls where .args.env == "prod"\n',
                              memory_run({"outputs/transcript.md": transcript}))
    assert result.expectations[0]["outcome"] == "pass"
