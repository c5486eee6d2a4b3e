"""A Claude Code session log that ends with the agent at work (its last step a call)
or with a request it never answered was cut short or stopped: what the harness said
after its last line (a hook's output, an error Claude Code wrote) is not in it, as the
calls made there are not, so a check that the harness said nothing of a kind is an
ERROR on it, never a PASS. Built from a real capture (``fixtures/real/claude-code/
hello-world-script``, SOURCE.md): its stop hook's feedback (line 8) fails the check on
the whole session; cut while the agent works (after lines 3 to 6) or right after the
request (line 2), the check cannot be decided."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

LINES = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "hello-world-script" /
         "transcript.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
RULES = 'eval 1\nexpect 1: no harness where .text contains "Stop hook"\nexpect 2: count(harness) <= 1\n'


def _outcomes(tmp_path: Path, lines: list[str]) -> list[str]:
    source = tmp_path / "transcript.jsonl"
    source.write_text("".join(lines), encoding="utf-8")
    return [e["outcome"] for e in referee.grade(RULES, source, as_eval="1")[0].grading["expectations"]]


@pytest.mark.parametrize("cut", [2, 3, 4, 5, 6])
def test_a_session_cut_while_the_agent_works_decides_no_check_over_the_harness(tmp_path, cut):
    assert _outcomes(tmp_path, LINES[:cut]) == ["error", "error"]


def test_the_whole_session_fails_them(tmp_path):
    assert _outcomes(tmp_path, LINES) == ["fail", "fail"]
