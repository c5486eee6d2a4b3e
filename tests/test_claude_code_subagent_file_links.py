"""Subagent files (``agent-*.jsonl``) beside a Claude Code session that are links: one
to a transcript elsewhere is read as that transcript, and one that cannot be followed
(a loop of links, a link to nothing) is a file that could not be read, which may hold
the session's calls: the run's calls are unknown, and nothing fails inside referee."""

from __future__ import annotations

import json
import os
from pathlib import Path

import referee
from referee.engine.run.importers import import_sources

SESSION = "sess-7"
RULES = 'eval 1\nexpect 1: no calls to "Bash"\n'


def _session(folder: Path) -> Path:
    records = [{"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": SESSION,
                "message": {"role": "user", "content": "Deploy it"}},
               {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": SESSION,
                "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                            "content": [{"type": "text", "text": "Deployed."}]}}]
    path = folder / "sess.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_loop_of_links_named_as_a_subagent_file_leaves_the_calls_unknown(tmp_path: Path):
    source = _session(tmp_path)
    os.symlink("agent-b.jsonl", tmp_path / "agent-a.jsonl")
    os.symlink("agent-a.jsonl", tmp_path / "agent-b.jsonl")
    (result,) = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error"]
    assert any("calls-may-be-missing" in p and "agent-a.jsonl" in p for p in result.grading["problems"])
    imported = import_sources("auto", [source], tmp_path / "out")
    assert imported.errors == () and len(imported.written) == 1


def test_a_link_to_a_transcript_of_no_subagent_of_the_session_changes_nothing(tmp_path: Path):
    source = _session(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    other = tmp_path / "elsewhere" / "other.jsonl"
    other.write_text(json.dumps({"type": "user", "sessionId": "another", "uuid": "x", "parentUuid": None,
                                 "message": {"role": "user", "content": "hi"}}) + "\n", encoding="utf-8")
    os.symlink(other, tmp_path / "agent-c.jsonl")
    (result,) = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["pass"]
