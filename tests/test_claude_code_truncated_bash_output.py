"""Claude Code cuts the output of a shell command longer than its limit (30,000
characters by default) before it gives it to the agent: the session's tool_result holds
the head of the output and then ``\\n\\n... [N lines truncated] ...`` (a real session's
``git diff --staged`` ended so, ``... [638 lines truncated] ...``), and the output it
cut is kept nowhere. referee read the head as the call's whole return, so
``no calls where .return contains "FAILED"`` passed on a run whose command printed it
in the lines cut. Now such an answer leaves its call's return unknown (``value-cut``,
at the answer's line), as an answer holding a preview of an output kept in a file
beside the session does; text that only tells of lines truncated elsewhere in it (not
a line of its own after a blank one) changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Call

RULES = 'eval 1\nexpect 1: no calls where .return contains "FAILED"\nexpect 2: response contains "Done"\n'
HEAD = "".join(f"+ line {n} of the diff\n" for n in range(40))
CUT = HEAD + "+        lastAttempted:\n\n... [638 lines truncated] ..."


def _record(kind: str, uuid: str, body: dict) -> dict:
    return {"type": kind, "uuid": uuid, "parentUuid": None if uuid == "u1" else "u1", "sessionId": "S",
            "timestamp": "2026-06-07T05:00:00.000Z", **body}


def _session(tmp_path: Path, content: object) -> Path:
    records = [_record("user", "u1", {"message": {"role": "user", "content": "show the staged diff"}}),
               _record("assistant", "a1", {"message": {"id": "m1", "role": "assistant", "content": [
                   {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "git diff --staged"}}]}}),
               _record("user", "u2", {"message": {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": "t1", "content": content, "is_error": False}]}}),
               _record("assistant", "a2", {"message": {"id": "m2", "role": "assistant", "stop_reason": "end_turn",
                                                       "content": [{"type": "text", "text": "Done."}]}})]
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return source


def _unsure(source: Path) -> list[tuple[str | None, bool]]:
    entries = conversations("claude-code", [source])[0].entries
    return [(e.call_id, "return" in e.unread) for e in entries if isinstance(e, Call)]


def test_a_shell_output_claude_code_cut_leaves_the_return_unknown(tmp_path: Path):
    for content in (CUT, CUT + "\nwarning: on stderr", [{"type": "text", "text": CUT}]):
        source = _session(tmp_path, content)
        assert _unsure(source) == [("t1", True)]
        grading = referee.grade(RULES, source, as_eval="1")[0].grading
        assert [e["outcome"] for e in grading["expectations"]] == ["error", "pass"]
        assert len(grading["problems"]) == 1
        assert grading["problems"][0].startswith("session.jsonl:3: warning[value-cut]")


def test_an_output_that_only_tells_of_truncated_lines_changes_nothing(tmp_path: Path):
    for content in (HEAD, "the log said: ... [3 lines truncated] ... and went on", HEAD + "[3 lines truncated]"):
        source = _session(tmp_path, content)
        assert _unsure(source) == [("t1", False)]
        grading = referee.grade(RULES, source, as_eval="1")[0].grading
        assert [e["outcome"] for e in grading["expectations"]] == ["pass", "pass"]
        assert grading["problems"] == []
