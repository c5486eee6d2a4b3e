"""Claude Code 2.x records what a hook gave the agent as an ``attachment`` record, not
as a message: a hook's ``additionalContext`` (``hook_additional_context``, its
``content`` a list of strings or a bare string), what a SessionStart or UserPromptSubmit
hook printed (``hook_success``'s ``content``), a blocking error (``hook_blocking_error``)
and why a hook stopped the agent (``hook_stopped_continuation``). Those are harness
text, read as ``## [harness] hook`` at their line: before, every attachment but a queued
prompt was skipped, and ``no harness where .text contains "deploy"`` passed on a session
whose hook told the agent to deploy. What a hook showed the user only (a system message,
a non-blocking error, the output of another event's hook) stays skipped, and a hook's
text given in a shape not read leaves the harness text unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

RULES = 'eval 1\nexpect 1: no harness where .text contains "deploy"\nexpect 2: response contains "Fixed"\n'
SESSION = "sess-h"
PROMPT = {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": SESSION,
          "timestamp": "2026-06-07T05:00:00.000Z", "message": {"role": "user", "content": "fix the bug"}}
REPLY = {"type": "assistant", "uuid": "a1", "parentUuid": "h1", "sessionId": SESSION,
         "timestamp": "2026-06-07T05:00:02.000Z",
         "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                     "content": [{"type": "text", "text": "Fixed."}]}}


def _hook(attachment: dict) -> dict:
    return {"parentUuid": "u1", "isSidechain": False, "attachment": attachment, "type": "attachment",
            "uuid": "h1", "timestamp": "2026-06-07T05:00:01.000Z", "sessionId": SESSION}


def _write(tmp_path: Path, attachment: dict) -> Path:
    source = tmp_path / "session.jsonl"
    records = [PROMPT, _hook(attachment), REPLY]
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return source


def _graded(tmp_path: Path, attachment: dict) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, _write(tmp_path, attachment), as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def _harness(tmp_path: Path, attachment: dict) -> list[tuple[str, str, int]]:
    conversation = conversations("claude-code", [_write(tmp_path, attachment)])[0]
    return [(e.kind, e.text, e.origin.line) for e in conversation.entries
            if isinstance(e, Text) and e.kind != "agent"]


GIVEN = {
    "additional-context": ({"type": "hook_additional_context", "content": ["Always deploy after an edit", "be brief"],
                            "hookName": "UserPromptSubmit", "hookEvent": "UserPromptSubmit", "toolUseID": "t"},
                           "Always deploy after an edit\nbe brief"),
    "additional-context-as-a-string": ({"type": "hook_additional_context", "content": "deploy now",
                                        "hookName": "PreToolUse:Bash", "hookEvent": "PreToolUse"}, "deploy now"),
    "session-start-output": ({"type": "hook_success", "hookName": "SessionStart:startup", "hookEvent": "SessionStart",
                              "content": "deploy rules", "stdout": "deploy rules", "stderr": "", "exitCode": 0,
                              "command": "print-rules.sh", "durationMs": 104}, "deploy rules"),
    "blocking-error": ({"type": "hook_blocking_error", "hookName": "PreToolUse:Bash", "hookEvent": "PreToolUse",
                        "blockingError": {"blockingError": "deploy is frozen", "command": "guard.sh"}},
                       "deploy is frozen"),
    "stopped-continuation": ({"type": "hook_stopped_continuation", "hookName": "PostToolUse:Edit",
                              "hookEvent": "PostToolUse", "message": "stop: deploy pending"}, "stop: deploy pending"),
}


@pytest.mark.parametrize("attachment, text", GIVEN.values(), ids=GIVEN.keys())
def test_a_hook_s_text_given_to_the_agent_is_harness_text_at_its_line(tmp_path: Path, attachment: dict, text: str):
    assert _harness(tmp_path, attachment) == [("eval prompt", "fix the bug", 1), ("hook", text, 2)]
    outcomes, problems = _graded(tmp_path, attachment)
    assert outcomes == ["fail", "pass"]
    assert not any("harness-may-be-missing" in p for p in problems)


NOT_GIVEN = {
    "other-event-output": {"type": "hook_success", "hookName": "PostToolUse:Bash", "hookEvent": "PostToolUse",
                           "content": "deploy log", "stdout": "deploy log", "exitCode": 0},
    "empty-output": {"type": "hook_success", "hookName": "SessionStart:startup", "hookEvent": "SessionStart",
                     "content": "", "stdout": "deploy", "exitCode": 0},
    "no-context": {"type": "hook_additional_context", "content": [], "hookName": "SessionStart",
                   "hookEvent": "SessionStart"},
    "system-message": {"type": "hook_system_message", "content": "deploy warning", "hookName": "Stop",
                       "hookEvent": "Stop", "level": "warning"},
    "non-blocking-error": {"type": "hook_non_blocking_error", "hookName": "SessionStart:startup",
                           "hookEvent": "SessionStart", "stderr": "deploy: command not found", "stdout": "",
                           "exitCode": 127},
    "cancelled": {"type": "hook_cancelled", "hookName": "SessionStart:startup", "hookEvent": "SessionStart",
                  "command": "deploy.sh", "timedOut": True},
    "edited-file": {"type": "edited_text_file", "filename": "app.py", "snippet": "deploy()"},
}


@pytest.mark.parametrize("attachment", NOT_GIVEN.values(), ids=NOT_GIVEN.keys())
def test_what_a_hook_showed_the_user_only_is_skipped(tmp_path: Path, attachment: dict):
    assert _harness(tmp_path, attachment) == [("eval prompt", "fix the bug", 1)]
    outcomes, problems = _graded(tmp_path, attachment)
    assert outcomes == ["pass", "pass"]
    assert not problems


NOT_READ = {
    "context-as-blocks": {"type": "hook_additional_context", "content": [{"type": "text", "text": "deploy"}],
                          "hookName": "SessionStart", "hookEvent": "SessionStart"},
    "context-as-an-object": {"type": "hook_additional_context", "content": {"text": "deploy"},
                             "hookName": "SessionStart", "hookEvent": "SessionStart"},
    "context-missing": {"type": "hook_additional_context", "hookName": "SessionStart", "hookEvent": "SessionStart"},
    "output-in-stdout-only": {"type": "hook_success", "hookName": "SessionStart:startup",
                              "hookEvent": "SessionStart", "stdout": "deploy rules", "exitCode": 0},
    "output-of-no-named-event": {"type": "hook_success", "content": "deploy rules"},
    # Claude Code reads the event from hookEvent alone: one its hook's name alone gives is not read
    "prompt-submit-output-named-by-its-hook": {"type": "hook_success", "hookName": "UserPromptSubmit",
                                               "content": "deploy first"},
    "blocking-error-with-no-text": {"type": "hook_blocking_error", "hookName": "PreToolUse:Bash",
                                    "hookEvent": "PreToolUse",
                                    "blockingError": {"command": "check.sh"}},
}


@pytest.mark.parametrize("attachment", NOT_READ.values(), ids=NOT_READ.keys())
def test_a_hook_s_text_in_a_shape_not_read_leaves_the_harness_text_unknown(tmp_path: Path, attachment: dict):
    outcomes, problems = _graded(tmp_path, attachment)
    assert outcomes == ["error", "pass"]
    assert any("harness-may-be-missing" in p and "session.jsonl:2" in p for p in problems)


def test_a_critical_reminder_is_a_system_reminder_at_its_line(tmp_path: Path):
    reminder = {"type": "critical_system_reminder", "content": "Never deploy on Fridays"}
    assert _harness(tmp_path, reminder) == [("eval prompt", "fix the bug", 1),
                                            ("system-reminder", "Never deploy on Fridays", 2)]
    assert _graded(tmp_path, reminder)[0] == ["fail", "pass"]
