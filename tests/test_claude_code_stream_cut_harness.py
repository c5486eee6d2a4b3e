"""A stream-json run cut before its last turn's ``result`` record (real captures,
``fixtures/real/claude-code``, each with its SOURCE.md) may have lost what the harness
said after the cut as well as the calls made there: an error Claude Code wrote, a
hook's output. So a check that the harness said nothing of a kind (``no harness where
...``, ``count(harness) == 0``) is an ERROR on it, never a PASS; a FAIL where the text
read already holds such words.

A stream that ends while Claude Code compacts the context (a ``system`` ``status``
record ``compacting``, the status that says how the compaction ended, or the
``compact_boundary``, with no result record after them) was cut while that turn went
on: it reads as cut, never as a run that finished with the turn before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"
DIAGNOSTIC = (REAL / "stream-json-diagnostic" / "claude-stream-json-simple.jsonl").read_text(encoding="utf-8")
COMPACTION = (REAL / "stream-compaction" / "claude_compaction_2.1.285.jsonl").read_text(encoding="utf-8")
HARNESS = ('eval 1\nexpect 1: no harness where .text contains "error"\nexpect 2: count(harness) == 0\n'
           'expect 3: no harness where .text contains "Compacted"\n')


def _outcomes(tmp_path: Path, rules: str, text: str) -> list[str]:
    source = tmp_path / "stream.jsonl"
    source.write_text(text, encoding="utf-8")
    return [e["outcome"] for e in referee.grade(rules, source, as_eval="1")[0].grading["expectations"]]


def _lines(text: str, count: int) -> str:
    return "".join(text.splitlines(keepends=True)[:count])


# Cut at line 20 or 46, the harness text read (a note on a subagent's call) already fails
# 'count(harness) == 0', as the whole stream does; nothing read decides the others.
@pytest.mark.parametrize(("cut", "count"), [(2, "error"), (20, "fail"), (46, "fail")])
def test_a_stream_cut_before_its_result_decides_no_check_over_the_harness_it_read_does_not(tmp_path, cut, count):
    assert _outcomes(tmp_path, HARNESS, _lines(DIAGNOSTIC, cut)) == ["error", count, "error"]


def test_the_whole_stream_decides_them(tmp_path):
    # its harness text is the two notes on its subagents' calls: none says "error"
    assert _outcomes(tmp_path, HARNESS, DIAGNOSTIC) == ["pass", "fail", "pass"]


# Lines 15 and 16: the status records of /compact (compacting; compact_result success);
# 17 the turn's init, 18 its compact_boundary; 21 its result.
@pytest.mark.parametrize("cut", [15, 16, 18])
def test_a_stream_that_ends_while_compacting_reads_as_cut(tmp_path, cut):
    rules = (HARNESS + 'expect 4: no calls to "Bash"\nexpect 5: not response contains "600"\n'
             "expect 6: count(calls) == 1\n")
    assert _outcomes(tmp_path, rules, _lines(COMPACTION, cut)) == ["error"] * 6


def test_the_whole_compaction_stream_is_read_as_before(tmp_path):
    rules = HARNESS + 'expect 4: no calls to "Bash"\nexpect 5: not response contains "600"\n'
    assert _outcomes(tmp_path, rules, COMPACTION) == ["pass", "fail", "fail", "pass", "pass"]


def test_a_stream_cut_after_the_next_turn_began_streaming_reads_as_cut(tmp_path):
    # --include-partial-messages: a stream_event of the main agent after the last result
    # is the next turn's message under way, whose result never came
    lines = COMPACTION.splitlines(keepends=True)[:14]
    session = json.loads(lines[0])["session_id"]
    start = {"type": "stream_event", "parent_tool_use_id": None, "session_id": session, "uuid": "e1",
             "event": {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                                            "content": [], "model": "claude-haiku-4-5"}}}
    rules = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: not response contains "600"\n'
    assert _outcomes(tmp_path, rules, "".join(lines) + json.dumps(start) + "\n") == ["error", "error"]
