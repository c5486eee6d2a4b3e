"""Each turn of a stream-json run opens with a ``system`` ``init`` record and ends with
a ``result`` record of its own; Claude Code may hold a turn's result back until a later
turn ends (the real stream-async-agent capture, Claude Code 2.1.223: two inits, then
both results last), so a result need not follow its own turn. A stream that holds more
inits of the main agent than results was cut short in a turn that never got its result:
the calls made after its last line are unknown, and so is the reply. Before, only a turn
after the last result was said to have none: the real capture cut right after its first
result record, or a real run cut while it worked with another run's whole stream after
it, passed ``no calls to "Write"`` and ``count(calls) <= N`` on what was read."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from real_session import REAL

ASYNC = REAL / "stream-async-agent" / "claude_stream_subagent_multi_result.jsonl"
PARALLEL = REAL / "stream-parallel-calls" / "claude_stream_real_capture.jsonl"
RULES = 'eval 1\nexpect 1: count(calls) <= 3\nexpect 2: no calls to "Write"\nexpect 3: not response contains "zzz"\n'


def _graded(tmp_path: Path, name: str, lines: list[str]) -> tuple[list[str], list[str]]:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    (result,) = referee.grade(RULES, path, as_eval="1")
    return [item["outcome"] for item in result.expectations], result.grading["problems"]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_the_real_captures_read_as_before(tmp_path: Path):
    assert _graded(tmp_path, ASYNC.name, _lines(ASYNC))[0] == ["pass", "pass", "pass"]
    assert _graded(tmp_path, PARALLEL.name, _lines(PARALLEL))[0] == ["pass", "pass", "pass"]


def test_the_async_capture_cut_after_its_first_result_is_cut_short(tmp_path: Path):
    lines = _lines(ASYNC)
    first = next(n for n, line in enumerate(lines) if '"type":"result"' in line)
    assert first == len(lines) - 2  # the results come last, the second turn's held back after the first's
    outcomes, problems = _graded(tmp_path, ASYNC.name, lines[:first + 1])
    assert outcomes == ["error", "error", "error"]
    assert any("calls-may-be-missing" in p and f":{first + 1}" in p for p in problems)


def test_a_run_cut_at_work_then_another_whole_is_cut_short(tmp_path: Path):
    lines = _lines(PARALLEL)
    at_work = next(n for n, line in enumerate(lines) if '"tool_use"' in line)  # its first call, no answer
    outcomes, _ = _graded(tmp_path, PARALLEL.name, lines[:at_work + 1] + lines)
    assert outcomes == ["error", "error", "error"]

