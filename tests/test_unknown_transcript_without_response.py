"""A run with no response file whose transcript is text in no format referee knows,
with no section it can name as the answer: an executor log whose headings are in
another language (``## 最终结果`` for ``## Final Result``) is one. The answer may be
anywhere in that text, so the response cannot be used. Taken as missing,
``not response contains ...`` passed (vacuously) while the log showed the very
text it forbids. So with an executor log in the log format's shape (``### Step 1``,
``**Tool**:``) whose answer stands under a heading other than ``## Final Result``,
graded where it lies or imported."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

LOG_IN_CHINESE = """# 评估执行记录

## 评估提示

帮我把发票提交报销。

## 执行

### 步骤 1
**工具**: expense-mcp_saveExpenseDoc
**结果**: 成功

## 最终结果

已提交：https://oa.example.com/view?fdId={fdId}
"""

RULES = """eval 1
expect "no placeholder": not response contains "{fdId}"
expect "answered": response is not empty
"""


def _grade(tmp_path: Path, transcript: str, response: str | None = None) -> dict[str, tuple[str, str]]:
    run = tmp_path / "eval-1" / "with_skill"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(transcript, encoding="utf-8")
    if response is not None:
        (run / "outputs" / "response.md").write_text(response, encoding="utf-8")
    (result,) = referee.grade(RULES, run)
    return {item["text"]: (item["outcome"], item["evidence"]) for item in result.expectations}


def test_a_log_in_another_language_gives_no_vacuous_pass(tmp_path):
    got = _grade(tmp_path, LOG_IN_CHINESE)
    for text, (outcome, evidence) in got.items():
        assert outcome == "error", (text, evidence)
        assert "no format referee knows" in evidence, evidence


LOG_ANSWERED_IN_CHINESE = """# Eval Execution Transcript

## Eval Prompt

Submit the invoice for reimbursement.

### Step 1: Submit it
**Tool**: expense-mcp_saveExpenseDoc
**Result**: done

## 最终结果

已提交：https://oa.example.com/view?fdId={fdId}
"""


@pytest.mark.parametrize("imported", [False, True], ids=["as-it-lies", "imported"])
def test_a_log_whose_answer_has_another_heading_gives_no_vacuous_pass(tmp_path, imported):
    if not imported:
        got = _grade(tmp_path, LOG_ANSWERED_IN_CHINESE)
    else:
        log = tmp_path / "transcript.md"
        log.write_text(LOG_ANSWERED_IN_CHINESE, encoding="utf-8")
        (result,) = referee.grade(RULES, log, as_eval="1")
        got = {item["text"]: (item["outcome"], item["evidence"]) for item in result.expectations}
    assert [outcome for outcome, _ in got.values()] == ["error", "error"], got


def test_a_response_file_beside_it_is_the_response(tmp_path):
    got = _grade(tmp_path, LOG_IN_CHINESE, "已提交：https://oa.example.com/view?fdId=a1b2\n")
    assert got["no placeholder"][0] == "pass", got
    assert got["answered"][0] == "pass", got


def test_an_empty_transcript_leaves_the_response_missing(tmp_path):
    got = _grade(tmp_path, "\n")
    assert got["answered"][0] == "fail", got
