"""A real stream-json run (``fixtures/real/claude-code/stream-async-agent``: a
subagent run in the background calls Bash) cut at any line before its last result
record: its subagent's Bash call may lie past the cut, so ``no calls to "Bash"`` never
passes on such a prefix; the whole stream fails it, as it should."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

STREAM = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-async-agent" / \
    "claude_stream_subagent_multi_result.jsonl"
LINES = STREAM.read_text(encoding="utf-8").splitlines(keepends=True)
RULES = 'eval 1\nexpect 1: no calls to "Bash"\n'


def _outcome(tmp_path: Path, lines: list[str]) -> str:
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(lines), encoding="utf-8")
    return referee.grade(RULES, source, as_eval="1")[0].grading["expectations"][0]["outcome"]


@pytest.mark.parametrize("cut", range(2, len(LINES)))
def test_a_prefix_of_the_stream_never_passes_a_negative_check(tmp_path, cut):
    assert _outcome(tmp_path, LINES[:cut]) != "pass"


def test_the_whole_stream_fails_it(tmp_path):
    assert _outcome(tmp_path, LINES) == "fail"
