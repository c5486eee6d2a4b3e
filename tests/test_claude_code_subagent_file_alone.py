"""A Claude Code subagent file (``agent-*.jsonl``) given without its session is imported on
its own (``each_conversation``): its records, every one a sidechain record, are the work of
the agent the run is of. Before, they were set aside as a subagent's work under a call that
is not there, and the file was refused as holding "no message referee could read". Probed
on the real subagent file of fasthooks' sample (Claude Code 2.0.76, MIT), whose session is
kept beside it: given with that session, it is still read as the session's subagent."""

from __future__ import annotations

import shutil
from pathlib import Path

from referee.engine.run.importers import read_sources

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "fasthooks-samples"
AGENT = "agent-af1ff21.jsonl"
SESSION = "sample_main_transcript.jsonl"


def test_a_subagent_file_alone_is_a_run_of_its_own(tmp_path: Path):
    shutil.copy(REAL / AGENT, tmp_path / AGENT)
    read = read_sources("claude-code", [tmp_path / AGENT])
    assert read.errors == ()
    (_, _, conversation), = read.found
    assert [(t.kind, t.text) for t in conversation.entries][0] == ("eval prompt", "Warmup")
    (reply,) = conversation.response
    assert reply.text.startswith("I'm Claude Code, Anthropic's file search specialist CLI.")
    assert reply.origin.line == 2


def test_a_subagent_file_beside_its_session_is_still_the_sessions(tmp_path: Path):
    for name in (AGENT, SESSION):
        shutil.copy(REAL / name, tmp_path / name)
    alone = read_sources("claude-code", [tmp_path / SESSION, tmp_path / AGENT])
    with_session = read_sources("claude-code", [tmp_path / SESSION])
    assert alone.errors == with_session.errors == ()
    assert [c for _, _, c in alone.found] == [c for _, _, c in with_session.found]
