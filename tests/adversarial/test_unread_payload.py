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


def test_no_tool_name_hint_when_a_run_could_not_be_read():
    # The transcript holds a NUL byte: it cannot be read, so no one knows what it called.
    transcript = "## [tool_calls] Step 1: rm_rf\nTool: rm_rf\nArgs: {}\nReturn: {}\nStatus: success\n\x00"
    (result,) = referee.grade('eval 1\nexpect: no calls to "rm_rf"\n',
                              memory_run({"outputs/transcript.md": transcript}))
    assert result.expectations[0]["outcome"] == "error"
    reasons = " ".join(s["reason"] for s in result.grading["eval_feedback"]["suggestions"])
    assert "which no run" not in reasons
