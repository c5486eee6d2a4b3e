"""A PermissionRequest hook that lets a call run may give it another input
(``decision.updatedInput``), and Claude Code runs the call with it. A session keeps
only that the hook allowed the call (a ``hook_permission_decision`` attachment naming
its ``toolUseID``), not the hook's answer: referee read the call's args as the
model's, so ``no calls to "Bash" where .args.command contains "rm"`` passed where the
hook may have made the call ``rm -rf x``. Now that call's args are unsure (a check on
them is an ERROR, ``input-changed`` at the attachment's line); a call the hook denied
did not run, and changes nothing."""

from __future__ import annotations

from pathlib import Path

from hook_stream import session_record
from test_claude_code_hook_changed_input import _graded, _session, _unsure


def _decision(decision: str, call_id: str = "t1") -> dict:
    return session_record("attachment", "h1", {"attachment": {
        "type": "hook_permission_decision", "decision": decision, "toolUseID": call_id,
        "hookEvent": "PermissionRequest"}})


def test_a_call_a_permission_request_hook_allowed_has_args_unsure(tmp_path: Path):
    source = _session(tmp_path, _decision("allow"))
    assert _unsure(source) == [("t1", True), ("t2", False)]
    outcomes, problems = _graded(source)
    assert outcomes == ["error", "pass", "pass"]
    assert [p for p in problems if "input-changed" in p] == [
        "session.jsonl:3: warning[input-changed]: the PermissionRequest hook allowed its call with an answer the "
        "session does not keep, and may have given call 't1' ('Bash') another input: the call that ran may not be the one "
        "the agent's tool_use shows, so a check on its args is an error"]


def test_a_call_a_permission_request_hook_denied_changes_nothing(tmp_path: Path):
    source = _session(tmp_path, _decision("deny"))
    assert _unsure(source) == [("t1", False), ("t2", False)]
    assert _graded(source) == (["pass", "pass", "pass"], [])
