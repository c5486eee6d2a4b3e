"""A PreToolUse hook that answers with the input its call already had
(``updatedInput`` equal to the ``tool_use`` block's ``input``: a hook that passes the
input on, as some must to allow a call) changes nothing: the call's args stay sure, and
a check on them is decided, not an ERROR. An input that differs in any value, a number
for a boolean too, still makes them unsure."""

from __future__ import annotations

from pathlib import Path

from test_claude_code_hook_changed_input import _graded, _hook, _stream, _unsure


def _answer(command: object) -> dict:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                   "updatedInput": {"command": command}}}


def test_a_hook_that_gave_back_the_call_s_own_input_changes_nothing(tmp_path: Path):
    source = _stream(tmp_path, _hook(_answer("ls")))
    assert _unsure(source) == [("t1", False)]
    assert _graded(source) == (["pass", "pass", "pass"], [])


def test_an_input_that_differs_in_kind_alone_is_another_input(tmp_path: Path):
    calls = [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": True}}]
    source = _stream(tmp_path, _hook(_answer(1)), calls)
    assert _unsure(source) == [("t1", True)]
