"""A transcript with no record whose ``## Final Result`` section holds the answer,
and no response file: an executor log of a run that took no step (no ``### Step``
to show its shape) is still a log, and its answer is the response; a text in no
format referee knows whose final section may be the answer gives a response that
cannot be used. Either way ``not response contains ...`` never passes on an answer
left unread."""

from __future__ import annotations

from pathlib import Path

import referee

NO_STEPS = """# Eval Execution Transcript

## Eval Prompt
Book the flight.

## Execution
No tool was needed: the flight was given in the prompt.

## Final Result
Booked {fdId} on LX2084.

## Issues
- None
"""

UNKNOWN = """# What I did

I booked the flight.

## Final Result
Booked {fdId} on LX2084.
"""

RULES = """eval 1
expect "no placeholder": not response contains "{fdId}"
expect "names the flight": response contains "LX2084"
"""


def _grade(tmp_path: Path, transcript: str) -> dict[str, tuple[str, str]]:
    run = tmp_path / "eval-1" / "with_skill"
    (run / "outputs").mkdir(parents=True)
    (run / "transcript.md").write_text(transcript, encoding="utf-8")
    (result,) = referee.grade(RULES, run)
    return {item["text"]: (item["outcome"], item["evidence"]) for item in result.expectations}


def test_an_executor_log_without_steps_answers_with_its_final_result(tmp_path):
    got = _grade(tmp_path, NO_STEPS)
    assert got["no placeholder"][0] == "fail", got
    assert got["names the flight"][0] == "pass", got
    assert "transcript.md:10" in got["names the flight"][1]


def test_a_final_result_in_an_unknown_text_is_no_vacuous_pass(tmp_path):
    got = _grade(tmp_path, UNKNOWN)
    for text, (outcome, evidence) in got.items():
        assert outcome == "error", (text, evidence)
        assert "Final Result" in evidence, evidence
