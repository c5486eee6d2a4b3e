"""Claude Code answers every call (a refusal, an interrupt: an error) before the
agent's next step. A call no record answers while the agent went on after it (a later
call answered, its words) had its answer in a line the file lost, and that answer may
say the call failed: its status and return are unknown (a check on them is an ERROR),
never ``no_result``, which ``no calls with status error`` passed on. Built from real
captures (``fixtures/real/claude-code``, each with its SOURCE.md), each with one line,
the answer of a call, taken out."""

from __future__ import annotations

from pathlib import Path

import referee

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"
SESSION = REAL / "hello-world-script" / "transcript.jsonl"  # Write (line 3), Bash (5, answered at 6), the reply
STREAM = REAL / "stream-json-diagnostic" / "claude-stream-json-simple.jsonl"  # answers of the main agent at 10-12
RULES = ('eval 1\nexpect 1: no calls with status error where .agent == "main"\n'
         'expect 2: not last(calls to "Bash").return contains "Hello"\nexpect 3: count(calls) == 2\n')


def _outcomes(tmp_path: Path, source: Path, without: int, rules: str = RULES) -> tuple[list[str], list[str]]:
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = tmp_path / source.name
    cut.write_text("".join(lines[:without - 1] + lines[without:]), encoding="utf-8")
    grading = referee.grade(rules, cut, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_call_whose_answer_is_lost_while_the_agent_went_on_has_an_unknown_status(tmp_path):
    outcomes, problems = _outcomes(tmp_path, SESSION, 6)
    assert outcomes == ["error", "error", "pass"]
    assert any(p.startswith("transcript.jsonl:5: ") and "status-unknown" in p for p in problems)


def test_the_whole_session_is_read_as_before(tmp_path):
    outcomes, problems = _outcomes(tmp_path, SESSION, 10**6)
    assert outcomes == ["pass", "fail", "pass"]
    assert not any("status-unknown" in p for p in problems)


def test_a_stream_that_lost_the_answer_of_a_main_call_has_it_unknown(tmp_path):
    rules = 'eval 1\nexpect 1: no calls with status error where .agent == "main"\n'
    assert _outcomes(tmp_path, STREAM, 12, rules)[0] == ["error"]
    assert _outcomes(tmp_path, STREAM, 10**6, rules)[0] == ["pass"]
