"""A hook that answers Claude Code in JSON gives the agent more than its
``additionalContext``: the ``reason`` it blocked for (``decision`` "block": feedback on
a tool that ran, why the agent may not stop yet), why it denied a tool call
(``permissionDecisionReason`` with ``permissionDecision`` "deny", or a PermissionRequest
hook's ``decision.message``), and why it stopped the agent (``stopReason`` with
``continue`` false). A stream's ``hook_response`` record read the context alone, and
``no harness where .text contains "deploy"`` passed on a stream whose PostToolUse hook
blocked with the reason "deploy". Now those are harness text (``hook``) at its line; what
is shown to the user only (``systemMessage``, a reason to allow or to ask, a blocked
prompt's reason) stays skipped, and a reason an event not placed gave, or one in a shape
not read, leaves the harness text unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text
from hook_stream import graded, write_stream


def _answered(answer: dict, event: str = "PostToolUse") -> dict:
    stdout = json.dumps(answer) + "\n"
    return {"type": "system", "subtype": "hook_response", "hook_id": "h", "hook_name": f"{event}:Bash",
            "hook_event": event, "output": stdout, "stdout": stdout, "stderr": "", "exit_code": 0,
            "outcome": "success", "uuid": "x1", "session_id": "s"}


def _deny(decision: str, reason: str = "deploy is frozen") -> dict:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision,
                                   "permissionDecisionReason": reason}}


GIVEN = {
    "post-tool-use-block": (_answered({"decision": "block", "reason": "deploy is frozen"}), "deploy is frozen"),
    "stop-block": (_answered({"decision": "block", "reason": "deploy is frozen"}, "Stop"), "deploy is frozen"),
    "pre-tool-use-deny": (_answered(_deny("deny"), "PreToolUse"), "deploy is frozen"),
    "permission-request-deny": (_answered({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {
        "behavior": "deny", "message": "deploy is frozen"}}}, "PermissionRequest"), "deploy is frozen"),
    "stopped": (_answered({"continue": False, "stopReason": "deploy is frozen"}), "deploy is frozen"),
    "context-and-reason": (_answered({"decision": "block", "reason": "deploy is frozen", "hookSpecificOutput": {
        "hookEventName": "PostToolUse", "additionalContext": "lint failed"}}), "lint failed\ndeploy is frozen"),
}


@pytest.mark.parametrize("response, text", GIVEN.values(), ids=GIVEN.keys())
def test_a_reason_a_hook_gave_the_agent_in_json_is_harness_text_at_its_line(tmp_path: Path, response: dict,
                                                                            text: str):
    conversation = conversations("claude-code", [write_stream(tmp_path, response)])[0]
    harness = [(e.kind, e.text, e.origin.line) for e in conversation.entries if isinstance(e, Text) and e.kind != "agent"]
    assert harness == [("eval prompt", "fix it", 2), ("hook", text, 3)]
    assert graded(tmp_path, response) == (["fail", "pass"], [])


NOT_GIVEN = {
    "system-message": _answered({"systemMessage": "deploy is frozen"}),
    "pre-tool-use-allow": _answered(_deny("allow"), "PreToolUse"),
    "pre-tool-use-ask": _answered(_deny("ask"), "PreToolUse"),
    "prompt-blocked": _answered({"decision": "block", "reason": "deploy is frozen"}, "UserPromptSubmit"),
    "approved": _answered({"decision": "approve", "reason": "deploy is fine"}),
    "going-on": _answered({"continue": True, "stopReason": "deploy"}),
}


@pytest.mark.parametrize("response", NOT_GIVEN.values(), ids=NOT_GIVEN.keys())
def test_what_a_hook_showed_the_user_only_is_skipped(tmp_path: Path, response: dict):
    assert graded(tmp_path, response) == (["pass", "pass"], [])


UNKNOWN = {
    "block-of-an-event-not-placed": _answered({"decision": "block", "reason": "deploy"}, "ConfigChange"),
    "reason-of-an-unknown-decision": _answered(_deny("defer"), "PreToolUse"),
    "reason-no-text": _answered({"decision": "block", "reason": ["deploy"]}),
}


@pytest.mark.parametrize("response", UNKNOWN.values(), ids=UNKNOWN.keys())
def test_a_reason_that_may_have_been_given_leaves_the_harness_text_unknown(tmp_path: Path, response: dict):
    outcomes, problems = graded(tmp_path, response)
    assert outcomes == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "stream.jsonl:3" in p for p in problems)
