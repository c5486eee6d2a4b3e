"""A Claude Code session shows each hook start for a call (a ``progress`` record of
type ``hook_progress``); a real Claude Code 2.1.39 session shows its PreToolUse hooks
start at every call and keeps no answer of any (no ``hook_success`` attachment), so a
PreToolUse hook that started with no answer kept
says nothing of its call: the call's args stay those the agent's tool_use gives, and a
check on them is decided. Taken as a hook that may have changed its call's input, every
call of such a session was unsure, and every check on args an ERROR."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = ('eval 1\nexpect 1: no calls to "Bash" where .args.command contains "rm"\n'
         'expect 2: any calls to "Bash" have .args.command == "bd ready"\n')


def _session(tmp_path: Path) -> Path:
    base = {"sessionId": "S", "version": "2.1.39", "cwd": "/w", "isSidechain": False}
    call = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "bd ready"}}
    records = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "find ready work"}},
        {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [call]}},
        *({"type": "progress", "uuid": f"p{n}", "toolUseID": "toolu_1", "parentToolUseID": "toolu_1",
           "data": {"type": "hook_progress", "hookEvent": "PreToolUse", "hookName": "PreToolUse:Bash",
                    "command": command}} for n, command in enumerate(["guard.sh", "capture.sh"])),
        {"type": "progress", "uuid": "p9", "toolUseID": "toolu_1", "parentToolUseID": "toolu_1",
         "data": {"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse:Bash",
                  "command": "after.sh"}},
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"tool_use_id": "toolu_1", "type": "tool_result", "content": "1. spotter-a0y", "is_error": False}]}},
        {"type": "assistant", "uuid": "a2", "message": {"id": "m2", "role": "assistant", "stop_reason": "end_turn",
                                                         "content": [{"type": "text", "text": "One is ready."}]}},
    ]
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps({**base, **r}) + "\n" for r in records), encoding="utf-8")
    return source


def test_a_hook_that_started_with_no_answer_kept_leaves_its_calls_args_sure(tmp_path: Path):
    result, = referee.grade(RULES, _session(tmp_path), as_eval="1")
    assert [e["outcome"] for e in result.expectations] == ["pass", "pass"]
    assert not [p for p in result.grading["problems"] if "input-changed" in p]
