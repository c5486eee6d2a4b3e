"""A line of a session log that is not read (text that is no JSON, ``null``, a number:
no record) while calls are open may hold their answer, as a user record does. A call
never answered after it has an answer whose status and return are unknown, never none:
on the real coverage-test-fix session, whose last Bash call failed (``is_error``), the
answer's line written as a program's output or as ``null`` left that call read as never
answered, and ``no calls with status error`` passed. A call answered after such a line
is read by its answer (a line of stderr merged into a log changes nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from real_session import REAL

FIXTURE = REAL / "coverage-test-fix" / "transcript.jsonl"
RULES = 'eval "x"\nexpect 1: no calls with status error\nexpect 2: count(calls) >= 13\n'


def _grade(tmp_path: Path, lines: list[str]) -> tuple[list[str], list[str]]:
    source = tmp_path / "transcript.jsonl"
    source.write_text("\n".join(lines), encoding="utf-8")
    (result,) = referee.grade(RULES, [source], as_eval="x")
    return [item["outcome"] for item in result.expectations], result.grading["problems"]


def _lines() -> tuple[list[str], int]:
    """The session's lines, and the index of the line of its failed answer."""
    lines = FIXTURE.read_text(encoding="utf-8").split("\n")
    return lines, next(n for n, line in enumerate(lines) if '"is_error":true' in line.replace(" ", ""))


@pytest.mark.parametrize("written", ["npm ERR! code ELIFECYCLE", "null", "7", '"Error: tests failed"'])
def test_the_answer_line_not_read_leaves_the_open_call_unknown(tmp_path: Path, written: str):
    lines, at = _lines()
    assert _grade(tmp_path, lines)[0] == ["fail", "pass"]
    lines[at] = written
    verdicts, problems = _grade(tmp_path, lines)
    assert verdicts == ["error", "pass"]
    assert any(f"transcript.jsonl:{at + 1}: warning[status-unknown]" in problem for problem in problems)


def test_a_line_not_read_before_the_answer_changes_nothing(tmp_path: Path):
    lines, at = _lines()
    lines.insert(at, "npm WARN deprecated glob@7.2.3")  # stderr merged in, while the call runs
    assert _grade(tmp_path, lines)[0] == ["fail", "pass"]
