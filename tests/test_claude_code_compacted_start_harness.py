"""A Claude Code session that opens with a compaction continues work this file does
not hold, and with it the turns of the user and the harness of that work (the eval
prompt, a hook's output, an error Claude Code wrote): a check that the harness said
nothing of a kind is an ERROR on it, as on a session resumed from another file, never
a PASS on the turns after the compaction. Built from real captures
(``fixtures/real/claude-code``, each with its SOURCE.md): hello-world-script's session
from its agent's second call on, after the boundary and summary of compact-command-
prompt-suggestions' /compact. A compaction in the middle of the session changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import referee

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"
HELLO = (REAL / "hello-world-script" / "transcript.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
COMPACT = (REAL / "compact-command-prompt-suggestions" / "8aa54c1d-5030-4491-be42-e0c416424b8a.jsonl").read_text(
    encoding="utf-8").splitlines(keepends=True)
BOUNDARY_AND_SUMMARY = COMPACT[10:12]  # lines 11 (compact_boundary) and 12 (isCompactSummary)
RULES = ('eval 1\nexpect 1: no harness where .text contains "Stop hook"\n'
         'expect 2: exactly 1 harness where .text contains "This session is being continued"\n')


def _outcomes(tmp_path: Path, lines: list[str]) -> list[str]:
    assert all(json.loads(line) for line in lines)
    source = tmp_path / "session.jsonl"
    source.write_text("".join(lines), encoding="utf-8")
    return [e["outcome"] for e in referee.grade(RULES, source, as_eval="1")[0].grading["expectations"]]


def test_a_session_that_opens_with_a_compaction_decides_no_absence_of_harness_text(tmp_path):
    # the stop hook's feedback (line 8) was cut off with the work before the compaction
    lines = HELLO[:1] + BOUNDARY_AND_SUMMARY + HELLO[8:]
    assert _outcomes(tmp_path, lines) == ["error", "error"]


def test_a_compaction_in_the_middle_changes_nothing(tmp_path):
    lines = HELLO[:6] + BOUNDARY_AND_SUMMARY + HELLO[6:7] + HELLO[8:]
    assert _outcomes(tmp_path, lines) == ["pass", "pass"]
