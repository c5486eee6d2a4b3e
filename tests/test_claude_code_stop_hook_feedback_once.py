"""Claude Code 2.1.x writes why a Stop hook sent the agent back to work twice: as the
hook's ``hook_blocking_error`` attachment and as an ``isMeta`` user record "Stop hook
feedback:\\n..." carrying the same text, in either order. Both were harness text, so
``count(harness where .text contains "deploy first") == 1`` failed on a session whose
agent was told once. Now the feedback is read, and a blocking error of a Stop or
SubagentStop hook it carries, read since the agent last spoke, is not read again (nor is
a stream's ``hook_response`` of such a hook); either one alone is read as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

SESSION = "sess-stop"
RULES = ('eval 1\nexpect 1: count(harness where .text contains "deploy first") == 1\n'
         'expect 2: response contains "Fixed"\n')


def _rec(kind: str, uuid: str, **fields) -> dict:
    return {"type": kind, "uuid": uuid, "sessionId": SESSION, "timestamp": "2026-10-04T00:48:57.000Z", **fields}


def _said(uuid: str, text: str) -> dict:
    return _rec("assistant", uuid, message={"id": uuid, "role": "assistant", "stop_reason": "end_turn",
                                            "content": [{"type": "text", "text": text}]})


PROMPT = _rec("user", "u1", message={"role": "user", "content": "fix the bug"})
DONE, FIXED = _said("a1", "Done."), _said("a2", "Fixed.")


def _blocked(text: str = "deploy first", event: str = "Stop") -> dict:
    return _rec("attachment", "h1", attachment={"type": "hook_blocking_error", "hookName": event, "hookEvent": event,
                                                "blockingError": {"blockingError": text, "command": "check.sh"}})


def _feedback(text: str = "deploy first", event: str = "Stop") -> dict:
    return _rec("user", "u2", isMeta=True, message={"role": "user", "content": f"{event} hook feedback:\n{text}"})


def _harness(tmp_path: Path, records: list[dict]) -> tuple[list[tuple[str, str, int]], list[str]]:
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    conversation = conversations("claude-code", [source])[0]
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return ([(e.kind, e.text, e.origin.line) for e in conversation.entries if isinstance(e, Text) and e.kind != "agent"],
            [e["outcome"] for e in grading["expectations"]])


ONCE = {
    "attachment-first": ([PROMPT, DONE, _blocked(), _feedback(), FIXED], 4),
    "feedback-first": ([PROMPT, DONE, _feedback(), _blocked(), FIXED], 3),
    "subagent-stop": ([PROMPT, DONE, _blocked(event="SubagentStop"), _feedback(event="SubagentStop"), FIXED], 4),
}


@pytest.mark.parametrize("records, line", ONCE.values(), ids=ONCE.keys())
def test_a_stop_hook_s_reason_written_twice_is_read_once_as_its_feedback(tmp_path: Path, records: list[dict],
                                                                         line: int):
    harness, outcomes = _harness(tmp_path, records)
    event = "SubagentStop" if "SubagentStop" in json.dumps(records) else "Stop"
    assert harness == [("eval prompt", "fix the bug", 1), ("hook", f"{event} hook feedback:\ndeploy first", line)]
    assert outcomes == ["pass", "pass"]


def test_either_one_alone_is_read(tmp_path: Path):
    assert _harness(tmp_path, [PROMPT, DONE, _blocked(), FIXED]) == (
        [("eval prompt", "fix the bug", 1), ("hook", "deploy first", 3)], ["pass", "pass"])
    assert _harness(tmp_path, [PROMPT, DONE, _feedback(), FIXED]) == (
        [("eval prompt", "fix the bug", 1), ("hook", "Stop hook feedback:\ndeploy first", 3)], ["pass", "pass"])


def test_a_refusal_the_agent_was_given_again_later_counts_twice(tmp_path: Path):
    """Feedback after the agent spoke again is another time it was told: the earlier
    blocking error stays, and so does a blocking error of another event or other text."""
    again = [PROMPT, DONE, _blocked(), _said("a3", "Still done."), _feedback(), FIXED]
    harness, outcomes = _harness(tmp_path, again)
    assert [h[2] for h in harness] == [1, 3, 5] and outcomes == ["fail", "pass"]
    other = [PROMPT, DONE, _blocked(event="PostToolUse"), _feedback(), FIXED]
    assert _harness(tmp_path, other)[1] == ["fail", "pass"]
    differs = [PROMPT, DONE, _blocked("deploy first, then test"), _feedback(), FIXED]
    assert _harness(tmp_path, differs)[1] == ["fail", "pass"]


def test_a_stream_s_stop_hook_that_blocked_is_read_once(tmp_path: Path):
    response = {"type": "system", "subtype": "hook_response", "hook_id": "h", "hook_name": "Stop",
                "hook_event": "Stop", "output": "deploy first\n", "stdout": "", "stderr": "deploy first\n",
                "exit_code": 2, "outcome": "error", "uuid": "x1", "session_id": "s"}
    records = [{"type": "system", "subtype": "init", "cwd": "/w", "session_id": "s", "tools": [], "model": "m"},
               {"type": "user", "message": {"role": "user", "content": "fix the bug"}, "session_id": "s"},
               {**DONE, "session_id": "s"}, response, {**_feedback(), "session_id": "s"}, {**FIXED, "session_id": "s"},
               {"type": "result", "subtype": "success", "is_error": False, "result": "Fixed.", "session_id": "s"}]
    harness, outcomes = _harness(tmp_path, records)
    assert harness == [("eval prompt", "fix the bug", 2), ("hook", "Stop hook feedback:\ndeploy first", 5)]
    assert outcomes == ["pass", "pass"]
