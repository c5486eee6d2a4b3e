"""What ``claude -p --output-format stream-json`` prints when it compacts a conversation
(``/compact``, or on its own when the context runs out): a ``compact_boundary`` system
record, then the summary Claude Code writes in the user's place, then, for ``/compact``,
what the command printed. A session file marks that summary ``isCompactSummary``; the
stream (Claude Code 2.1.x) marks it only ``isSynthetic`` (the harness wrote it) and
``isReplay`` false. It is harness text of its own kind (``compaction``), never the eval
prompt nor a turn of the user, wherever it comes: a stream does not echo the user's
prompt, so the summary was the first user text read and was taken for the prompt.

The records are shaped as Claude Code 2.1.226 and 2.1.227 print them (recordings
published with their keys and their order, the summary's prose elided here)."""

from __future__ import annotations

import json
from pathlib import Path

import referee

SESSION = "b84fd8fb-74b2-4627-89d6-7a4cd4ccdeb8"
SUMMARY_TEXT = ("This session is being continued from a previous conversation that ran out of context. "
                "The summary below covers the earlier portion of the conversation.\n\nSummary:\n"
                "1. Primary Request and Intent:\n   The user asked to remember the number 47.\n")
RULES = ('eval 1\n'
         'expect 1: exactly 1 harness where (.title == "compaction" and .text contains "remember the number 47")\n'
         'expect 2: no harness where .title == "Eval Prompt"\n'
         'expect 3: exactly 1 calls to "Bash"\n'
         'expect 4: response contains "47"\n')


def _assistant(message_id: str, block: dict) -> dict:
    return {"type": "assistant", "message": {"model": "claude-sonnet-5", "id": message_id, "type": "message",
                                             "role": "assistant", "content": [block], "stop_reason": None,
                                             "usage": {"input_tokens": 2, "output_tokens": 4}},
            "parent_tool_use_id": None, "session_id": SESSION, "uuid": f"u-{message_id}"}


def _result(text: str, turns: int) -> dict:
    return {"is_error": False, "num_turns": turns, "stop_reason": "end_turn", "session_id": SESSION,
            "subtype": "success", "result": text, "type": "result", "permission_denials": []}


INIT = {"type": "system", "subtype": "init", "cwd": "/work/probe", "session_id": SESSION, "tools": ["Bash"],
        "model": "claude-sonnet-5", "permissionMode": "auto"}
FIRST_TURN = [
    INIT,
    _assistant("msg_1", {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "echo 47"}}),
    {"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "toolu_1", "type": "tool_result",
                                                              "content": "47", "is_error": False}]},
     "parent_tool_use_id": None, "session_id": SESSION, "uuid": "u-r1",
     "tool_use_result": {"stdout": "47", "stderr": "", "interrupted": False}},
    _assistant("msg_2", {"type": "text", "text": "ok"}),
    _result("ok", 2),
]
COMPACT_TURN = [
    {"type": "system", "subtype": "status", "status": "compacting", "session_id": SESSION, "uuid": "s1"},
    {"type": "system", "subtype": "status", "status": None, "compact_result": "success", "session_id": SESSION,
     "uuid": "s2"},
    INIT,
    {"type": "system", "subtype": "compact_boundary", "session_id": SESSION, "uuid": "b1",
     "compact_metadata": {"trigger": "manual", "pre_tokens": 50826, "post_tokens": 4477}},
    {"type": "user", "message": {"role": "user", "content": SUMMARY_TEXT}, "session_id": SESSION,
     "parent_tool_use_id": None, "uuid": "e1", "timestamp": "2026-08-09T01:06:48.757Z", "isReplay": False,
     "isSynthetic": True},
    {"type": "user", "message": {"role": "user", "content": "<local-command-stdout>Compacted </local-command-stdout>"},
     "session_id": SESSION, "parent_tool_use_id": None, "uuid": "f1", "timestamp": "2026-08-09T01:06:48.965Z",
     "isReplay": True},
    _result("", 0),
]
RECALL_TURN = [INIT, _assistant("msg_3", {"type": "text", "text": "The number was 47."}),
               _result("The number was 47.", 1)]


def _graded(tmp_path: Path, records: list[dict], rules: str = RULES) -> tuple[list[str], list[str]]:
    source = tmp_path / "compaction.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(rules, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_the_summary_of_a_compact_command_is_compaction_text_not_the_prompt(tmp_path):
    outcomes, problems = _graded(tmp_path, FIRST_TURN + COMPACT_TURN + RECALL_TURN)
    assert outcomes == ["pass", "pass", "pass", "pass"], problems


def test_a_summary_written_while_the_agent_works_is_no_request_of_the_user(tmp_path):
    # compacted on its own mid-turn: boundary and summary between two of the agent's messages
    auto = [dict(COMPACT_TURN[3], compact_metadata={"trigger": "auto", "pre_tokens": 167000}), COMPACT_TURN[4]]
    records = FIRST_TURN[:3] + auto + FIRST_TURN[3:]
    rules = RULES.replace('"47"\n', '"ok"\n')
    outcomes, _ = _graded(tmp_path, records, rules)
    assert outcomes == ["pass", "pass", "pass", "pass"]


def test_synthetic_text_of_another_kind_is_left_as_it_was(tmp_path):
    # only the compaction's own words make a synthetic user record its summary
    other = dict(COMPACT_TURN[4], message={"role": "user", "content": "Remember the number 47."})
    outcomes, _ = _graded(tmp_path, FIRST_TURN + COMPACT_TURN[:4] + [other] + COMPACT_TURN[5:] + RECALL_TURN)
    assert outcomes[0] == "fail"


def test_a_stream_cut_after_a_compaction_mid_turn_leaves_its_calls_unknown(tmp_path):
    # as a session log cut there reads (test_claude_code_at_work): the turn has no result,
    # so the agent was at work when the stream ended, and its calls after it are unknown
    auto = [dict(COMPACT_TURN[3], compact_metadata={"trigger": "auto", "pre_tokens": 167000}), COMPACT_TURN[4]]
    rules = 'eval 1\nexpect 1: no calls to "Read"\nexpect 2: count(calls) <= 1\nexpect 3: response is empty\n'
    outcomes, problems = _graded(tmp_path, FIRST_TURN[:3] + auto, rules)
    assert outcomes == ["error", "error", "error"]
    assert any("calls-may-be-missing" in p for p in problems)
