"""A stream-json run of several turns (streamed input, or the output of ``claude -p
--resume`` appended to the first run's) ends each turn with a ``result`` record; the
response is the reply of the last turn. When the last turn holds no words of the
agent, the words before it answered an earlier turn: never its reply. A last turn
whose result is empty has no reply (the response is empty, ``no-reply``); one whose
result names words not read leaves the response unknown."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: response contains "Deployed"\nexpect 2: not response contains "rolled"\n'
SESSION = "s-6"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}


def _user(text: str) -> dict:
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None,
            "session_id": SESSION}


def _said(message_id: str, content: list[dict]) -> dict:
    return {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
            "message": {"id": message_id, "role": "assistant", "stop_reason": None, "content": content}}


def _result(text: str) -> dict:
    return {"type": "result", "subtype": "success", "is_error": False, "result": text, "session_id": SESSION}


FIRST = [INIT, _user("Deploy the fix"), _said("m1", [{"type": "text", "text": "Deployed."}]), _result("Deployed.")]


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_last_turn_with_no_words_has_no_reply(tmp_path):
    records = FIRST + [INIT, _user("Now roll it back"), _said("m2", [{"type": "thinking", "thinking": "hmm"}]),
                       _result("")]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["fail", "pass"]
    assert any("no-reply" in p and "stream.jsonl:8" in p for p in problems)


def test_a_last_turn_whose_words_were_not_read_has_an_unknown_response(tmp_path):
    records = FIRST + [_user("Now roll it back"), _result("I rolled it back")]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["error", "error"]
    assert any("no-reply" in p and "stream.jsonl:6" in p for p in problems)


def test_the_reply_of_the_last_turn_is_the_response(tmp_path):
    records = FIRST + [INIT, _user("Say it again"), _said("m2", [{"type": "text", "text": "Deployed, again."}]),
                       _result("Deployed, again.")]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["pass", "pass"]
    assert not any("no-reply" in p for p in problems)


def test_a_run_appended_that_printed_its_init_alone_leaves_the_response_unknown(tmp_path):
    records = FIRST + [INIT]  # claude -p --resume started, and was cut short before its result
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["error", "error"]
    assert any("no-result" in p and "stream.jsonl:5" in p for p in problems)


def test_a_result_printed_again_for_the_same_reply_changes_nothing(tmp_path):
    records = FIRST + [_result("Deployed.")]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["pass", "pass"]
    assert not any("no-reply" in p for p in problems)


def test_an_empty_result_with_no_message_of_the_agent_after_the_last_leaves_it_unknown(tmp_path):
    """Two results with nothing of the agent between them do not show that it took a
    turn and said nothing: the response is unknown, never empty."""
    records = FIRST + [_result("")]
    outcomes, problems = _graded(tmp_path, records)
    assert outcomes == ["error", "error"]
    assert any("no-reply" in p and "unknown" in p for p in problems), problems
