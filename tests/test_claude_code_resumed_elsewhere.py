"""A Claude Code session file whose first message names as its parent
(``parentUuid``) a record the file does not hold continues a conversation held in
another file (a resumed or forked session given alone, a file cut at its head): the
calls made before it are unknown, so a check over the run's calls is an ERROR, never
a pass on the calls this file holds. A session whose records all chain to records
of its own, or open the chain (``parentUuid`` null), is read as before."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: response contains "deployed"\n'
SESSION = "sess-5"


def _user(uuid: str, parent: str | None, text: str, **more) -> dict:
    return {"type": "user", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION,
            "message": {"role": "user", "content": text}, **more}


def _reply(uuid: str, parent: str) -> dict:
    return {"type": "assistant", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION,
            "message": {"id": f"m-{uuid}", "role": "assistant", "stop_reason": "end_turn",
                        "content": [{"type": "text", "text": "All deployed."}]}}


def _graded(tmp_path: Path, records: list[dict]) -> tuple[list[str], list[str]]:
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_session_that_chains_to_a_record_of_another_file_has_unknown_calls(tmp_path):
    snapshot = {"type": "file-history-snapshot", "messageId": "x", "snapshot": {}}
    outcomes, problems = _graded(tmp_path, [snapshot, _user("u5", "a4", "go on"), _reply("a5", "u5")])
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in p and "session.jsonl:2" in p for p in problems)


def test_a_session_whose_chain_starts_in_it_is_read_as_before(tmp_path):
    hook = {"type": "attachment", "uuid": "h0", "parentUuid": None, "sessionId": SESSION,
            "attachment": {"type": "hook_success", "content": ""}}
    outcomes, problems = _graded(tmp_path, [hook, _user("u1", "h0", "Deploy it"), _reply("a1", "u1")])
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems)


def test_a_chain_that_points_to_a_later_line_is_its_own(tmp_path):
    outcomes, problems = _graded(tmp_path, [_user("u1", "s0", "Deploy it"), _reply("a1", "u1"),
                                            _user("s0", None, "<system-reminder>x</system-reminder>", isMeta=True)])
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems)


def test_a_later_record_whose_parent_is_not_held_is_read_as_before(tmp_path):
    # Claude Code names as parents messages it never wrote to the file (progress it did
    # not keep, a retry) in most long sessions: a gap after the first record is no cut
    gap = _user("u2", "p-never-written", "go on")
    outcomes, problems = _graded(tmp_path, [_user("u1", None, "Deploy it"), _reply("a1", "u1"), gap,
                                            _reply("a2", "u2")])
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems)
