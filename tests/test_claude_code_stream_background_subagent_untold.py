"""A subagent an Agent call ran in the background writes its messages into the stream
(``parent_tool_use_id``), and Claude Code tells the agent when it ended with a
``task_notification`` that names the call (``tool_use_id``) and counts the subagent's
calls (``usage.tool_uses``). Built on the real stream-async-agent capture (Claude Code
2.1.223): its notice counts 1 call, and the stream holds the subagent's one Bash call.

A notice that counts more calls than the stream holds of that subagent says calls were
made that are not read; a subagent whose messages end at a call, with no notice that it
ended, may have gone on after the stream's last line. Either way a check that no such
call was made must not pass (``calls-may-be-missing``). Before, ``count(calls) <= 3``
passed on both though the run made more."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from real_session import REAL

FIXTURE = REAL / "stream-async-agent" / "claude_stream_subagent_multi_result.jsonl"
RULES = ('eval 1\nexpect 1: count(calls) <= 3\nexpect 2: no calls to "Write"\n'
         'expect 3: response contains "subagent"\n')


def _lines() -> list[str]:
    return FIXTURE.read_text(encoding="utf-8").split("\n")


def _graded(tmp_path: Path, lines: list[str]) -> tuple[list[str], list[str]]:
    path = tmp_path / FIXTURE.name
    path.write_text("\n".join(lines), encoding="utf-8")
    (result,) = referee.grade(RULES, path, as_eval="1")
    return [item["outcome"] for item in result.expectations], [item["evidence"] for item in result.expectations]


def _at(lines: list[str], subtype: str) -> int:
    return next(n for n, line in enumerate(lines) if f'"subtype":"{subtype}"' in line)


def test_the_real_capture_reads_as_before(tmp_path: Path):
    assert _graded(tmp_path, _lines())[0] == ["pass", "pass", "pass"]


def test_a_notice_counting_more_calls_than_the_stream_holds_leaves_the_calls_unknown(tmp_path: Path):
    lines = _lines()
    at = _at(lines, "task_notification")
    notice = json.loads(lines[at])
    notice["usage"]["tool_uses"] = 3
    lines[at] = json.dumps(notice)
    outcomes, evidence = _graded(tmp_path, lines)
    assert outcomes == ["error", "error", "pass"]
    assert f"{FIXTURE.name}:{at + 1}" in evidence[0] and "3 calls" in evidence[0]


def test_a_notice_counting_as_many_calls_changes_nothing(tmp_path: Path):
    lines = _lines()
    at = _at(lines, "task_notification")
    notice = json.loads(lines[at])
    notice["usage"]["tool_uses"] = 0
    lines[at] = json.dumps(notice)
    assert _graded(tmp_path, lines)[0] == ["pass", "pass", "pass"]


def _subagent_at_work(lines: list[str]) -> list[str]:
    """The capture with the subagent's last messages (its Bash call's answer, its
    thinking and report) and the notice of its end left out: its messages end at its
    call, and nothing says it ended."""
    side = [n for n, line in enumerate(lines) if '"parent_tool_use_id":"toolu_' in line]
    dropped = {n for n in side if '"tool_result"' in lines[n] or n > side[-1] - 2} | {_at(lines, "task_notification")}
    kept = [line for n, line in enumerate(lines) if n not in dropped]
    assert sum('"parent_tool_use_id":"toolu_' in line for line in kept) == 2  # its thinking, its Bash call
    return kept


def test_a_background_subagent_left_at_a_call_with_no_notice_leaves_the_calls_unknown(tmp_path: Path):
    outcomes, evidence = _graded(tmp_path, _subagent_at_work(_lines()))
    assert outcomes == ["error", "error", "pass"]
    assert "at work" in evidence[0]


def test_after_the_last_result_too(tmp_path: Path):
    """So when the subagent's messages come after the run's last result record."""
    lines = _subagent_at_work(_lines())
    side = [n for n, line in enumerate(lines) if '"parent_tool_use_id":"toolu_' in line]
    moved = [lines[n] for n in side]
    rest = [line for n, line in enumerate(lines) if n not in side]
    last = max(n for n, line in enumerate(rest) if line.startswith('{"is_error"') or '"type":"result"' in line)
    outcomes, _ = _graded(tmp_path, rest[:last + 1] + moved + rest[last + 1:])
    assert outcomes == ["error", "error", "pass"]


def test_a_background_subagent_left_at_its_thinking_with_no_notice_leaves_the_calls_unknown(tmp_path: Path):
    """Its messages end at its first thinking (the stream gives a subagent's messages
    without its prompt): its words or its call come next, past the stream's last line."""
    lines = _lines()
    side = [n for n, line in enumerate(lines) if '"parent_tool_use_id":"toolu_' in line]
    dropped = set(side[1:]) | {_at(lines, "task_notification")}
    kept = [line for n, line in enumerate(lines) if n not in dropped]
    assert '"thinking"' in lines[side[0]]
    outcomes, evidence = _graded(tmp_path, kept)
    assert outcomes == ["error", "error", "pass"]
    assert "before its first words or call" in evidence[0]
