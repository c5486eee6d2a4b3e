"""A message skipped for a role that names a tool (smolagents writes its calls as
``tool-call`` messages whose text is the calls' Python repr, and the answers as
``tool-response``) holds a call, or answers one, that the run does not hold: no
check over the run's calls is decided on it (every one is an ERROR), never
``no calls to "Bash"`` passing. A skipped role that names none changes no check
over calls."""

from __future__ import annotations

import json

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\n'
CALLED = "Calling tools:\n[{'id': 'call_1', 'type': 'function', 'function': {'name': 'Bash', 'arguments': {}}}]"


def _grade(tmp_path, *messages: dict) -> str:
    source = tmp_path / "memory.json"
    source.write_text(json.dumps([{"role": "user", "content": [{"type": "text", "text": "New task: clean up"}]},
                                  *messages, {"role": "assistant", "content": "Done."}]), encoding="utf-8")
    return referee.grade(RULES, source, as_eval="1")[0].grading["expectations"][0]["outcome"]


ROLES = {
    "tool-call": {"role": "tool-call", "content": [{"type": "text", "text": CALLED}]},
    "tool-response": {"role": "tool-response", "content": [{"type": "text", "text": "Call id: call_1\nObservation: ok"}]},
    "Function": {"role": "FunctionCall", "content": "Bash()"},
}


@pytest.mark.parametrize("message", ROLES.values(), ids=ROLES.keys())
def test_a_role_naming_a_tool_leaves_the_calls_unknown(tmp_path, message):
    assert _grade(tmp_path, message) == "error"


def test_a_role_naming_no_tool_changes_no_check_over_calls(tmp_path):
    assert _grade(tmp_path, {"role": "critic", "content": None}) == "pass"
