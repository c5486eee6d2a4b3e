"""AutoGen's code execution: the agent writes code blocks in its text, and the agent that
executes them answers with ``exitcode: N (execution succeeded|failed)`` then ``Code
output:``, AutoGen's text for what ran. The code is never read as a call, but it ran:
the run's calls are incomplete (``calls-may-be-missing``), so a check over them is an
ERROR, never a pass; the message that wrote the code is a note sent with it, not a
reply. Words that only quote the answer inside a sentence show no command."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: count(calls) == 0\nexpect 2: no calls with status error\n'
         'expect 3: not response contains "pip install"\nexpect 4: response contains "TERMINATE"\n')
CODE = "Install it first.\n\n```sh\npip install yfinance\n```"


def _chat(answer: str) -> list[dict]:
    return [{"content": "Plot NVDA's price YTD.", "role": "user", "name": "user_proxy"},
            {"content": CODE, "role": "assistant", "name": "assistant"},
            {"content": answer, "role": "user", "name": "user_proxy"},
            {"content": "The chart is saved. TERMINATE", "role": "assistant", "name": "assistant"}]


@pytest.mark.parametrize("answer", [
    "exitcode: 1 (execution failed)\nCode output: \nModuleNotFoundError: No module named 'yfinance'\n",
    "exitcode: 0 (execution succeeded)\nCode output: \nSuccessfully installed yfinance\n",
])
def test_an_answer_to_code_taken_from_the_text_leaves_the_calls_unknown(tmp_path: Path, answer: str):
    verdicts, problems = graded(RULES, json_file(tmp_path / "chat.json", _chat(answer)))
    assert verdicts == ["error", "error", "pass", "pass"]
    assert any("warning[calls-may-be-missing]" in problem for problem in problems)


def test_words_that_quote_the_answer_show_no_command(tmp_path: Path):
    answer = "The log said exitcode: 1 (execution failed) earlier; try again."
    verdicts, _ = graded(RULES, json_file(tmp_path / "chat.json", _chat(answer)))
    assert verdicts == ["pass", "pass", "fail", "pass"]  # the code no answer follows stays the agent's words
