"""A stream-json result record names how the run ended by its ``subtype`` as well as
its ``is_error`` flag, and Claude Code has written ``error_max_turns`` (and other
``error_...`` subtypes) with ``is_error: false``: such a run did not finish either (it
ran out of turns, broke off), so its last words read are no finished reply and the
response is unknown. Only a result that says ``success`` (or names no subtype) with
``is_error: false`` lets the last words be the reply, and only when it is the one that
ends the turn of those words, and names the session of that turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: response contains "deployed"\nexpect 2: not response contains "failed"\n'
SESSION = "s-3"
INIT = {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]}
PROMPT = {"type": "user", "message": {"role": "user", "content": "Deploy the fix"}, "parent_tool_use_id": None,
          "session_id": SESSION}
SAID = {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
        "message": {"id": "m1", "role": "assistant", "stop_reason": None,
                    "content": [{"type": "text", "text": "I have deployed the fix."}]}}


def _graded(tmp_path: Path, result: dict) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    result = {"type": "result", "session_id": SESSION, "num_turns": 3, **result}
    source.write_text("".join(json.dumps(r) + "\n" for r in [INIT, PROMPT, SAID, result]), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


@pytest.mark.parametrize("subtype", ["error_max_turns", "error_during_execution", "error_max_budget_usd"])
def test_an_error_subtype_not_flagged_an_error_leaves_the_response_unknown(tmp_path, subtype):
    outcomes, problems = _graded(tmp_path, {"subtype": subtype, "is_error": False})
    assert outcomes == ["error", "error"]
    assert any("run-error" in p and subtype in p and "stream.jsonl:4" in p for p in problems)


@pytest.mark.parametrize("result", [{"subtype": "success", "is_error": False}, {"is_error": False}])
def test_a_successful_result_lets_the_last_words_be_the_reply(tmp_path, result):
    outcomes, problems = _graded(tmp_path, result)
    assert outcomes == ["pass", "pass"]
    assert not any("run-error" in p for p in problems)


def _results(tmp_path: Path, *results: dict) -> tuple[list[str], list[str]]:
    source = tmp_path / "stream.jsonl"
    records = [INIT, PROMPT, SAID] + [{"type": "result", "session_id": SESSION, "num_turns": 3, **r} for r in results]
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_success_printed_after_the_error_that_ended_the_reply_turn_leaves_it_unknown(tmp_path):
    """The turn that holds the last words ended in an error; a result after it that
    names those words again is no turn of its own, and does not undo the error."""
    outcomes, problems = _results(tmp_path, {"subtype": "error_during_execution", "is_error": True},
                                  {"subtype": "success", "is_error": False, "result": "I have deployed the fix."})
    assert outcomes == ["error", "error"]
    assert any("run-error" in p and "stream.jsonl:4" in p for p in problems), problems


def test_two_successes_naming_the_reply_read_it_as_before(tmp_path):
    done = {"subtype": "success", "is_error": False, "result": "I have deployed the fix."}
    assert _results(tmp_path, done, done)[0] == ["pass", "pass"]


@pytest.mark.parametrize("earlier", [[], [{"subtype": "error_during_execution", "is_error": True}]])
def test_a_last_result_of_another_session_says_nothing_of_this_one(tmp_path, earlier):
    """A result record that names another session than the messages of the turn it
    follows is another run's (two outputs in one file): how this run ended is not said."""
    other = {"subtype": "success", "is_error": False, "result": "I have deployed the fix.", "session_id": "s-9"}
    outcomes, problems = _results(tmp_path, *earlier, other)
    assert outcomes == ["error", "error"]
    assert any("no-result" in p and "'s-9'" in p for p in problems), problems


def test_a_resumed_run_whose_init_names_a_new_session_is_read_as_it_is(tmp_path):
    """``claude -p --resume`` has printed an init record naming a new session id: the
    messages and the result of the turn agree, so the run ended as its result says."""
    source = tmp_path / "stream.jsonl"
    records = [{**INIT, "session_id": "s-new"}, PROMPT, SAID,
               {"type": "result", "session_id": SESSION, "subtype": "success", "is_error": False,
                "result": "I have deployed the fix."}]
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["pass", "pass"]
