"""A dual-section transcript (a ``[tool_calls]`` record) whose ``## Final Result``
section holds the answer, in a run with no response file: that section is the
agent's text, and whether it is what the user was shown cannot be told, so the
response cannot be used. Taken as missing, ``not response contains ...`` passed
(vacuously) over the very text it forbids."""

from __future__ import annotations

from pathlib import Path

import referee

RECORD = """## Eval Prompt

Save the draft.

## [tool_calls] Step 1: saveExpenseDoc
Tool: expense-mcp_saveExpenseDoc
Args: {"docStatus": "10"}
Return: {"code": "200", "body": "a1b2"}
Status: success

## [agent_notes] Step 1: saved
Interpretation: the draft is saved.

## Final Result

Saved: https://oa.example.com/view?fdId={fdId}
"""

RULES = """eval 1
expect "no placeholder": not response contains "{fdId}"
expect "saved once": exactly 1 calls to glob "*saveExpenseDoc"
"""


def _grade(tmp_path: Path, response: str | None) -> dict[str, tuple[str, str]]:
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(RECORD, encoding="utf-8")
    if response is not None:
        (run / "outputs" / "response.md").write_text(response, encoding="utf-8")
    (result,) = referee.grade(RULES, tmp_path)
    return {item["text"]: (item["outcome"], item["evidence"]) for item in result.expectations}


def test_a_final_result_beside_a_record_is_no_vacuous_pass(tmp_path):
    got = _grade(tmp_path, None)
    outcome, evidence = got["no placeholder"]
    assert outcome == "error", evidence
    assert "Final Result" in evidence and "transcript.md" in evidence, evidence
    assert got["saved once"][0] == "pass", got


def test_a_response_file_is_still_the_response(tmp_path):
    got = _grade(tmp_path, "Saved: https://oa.example.com/view?fdId=a1b2\n")
    assert got["no placeholder"][0] == "pass", got
