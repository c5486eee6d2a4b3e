"""Whether a quote proves anything does not depend on how its characters are written:
full-width or mathematical letters, and invisible characters, are read as the loose
match reads them, so "Status: success" written so still proves nothing."""

from __future__ import annotations

import pytest
from llm_server import small_run, verdicts

from referee.engine.judging import SemanticItem
from referee.engine.verdict import Outcome
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.judge import LLMJudge
from referee.llm_adapter.substance import trivial

FULL_WIDTH = "\uff33\uff54\uff41\uff54\uff55\uff53\uff1a \uff53\uff55\uff43\uff43\uff45\uff53\uff53"  # Status: success
BOLD = "\U0001d412\U0001d42d\U0001d41a\U0001d42d\U0001d42e\U0001d42c: \U0001d42c\U0001d42e\U0001d41c\U0001d41c\U0001d41e\U0001d42c\U0001d42c"
HIDDEN = "Sta\u200btus: suc\u200bcess"


@pytest.mark.parametrize("quote", [FULL_WIDTH, BOLD, HIDDEN,
                                   "\uff34\uff48\uff45 \uff52\uff45\uff53\uff50\uff4f\uff4e\uff53\uff45 \uff49\uff53"])
def test_a_generic_quote_written_in_other_forms_proves_nothing(quote):
    assert trivial(quote)


def test_such_a_quote_carries_no_pass():
    # input: a grader's PASS whose only quote is "Status: success" in full-width letters
    run = small_run({"transcript.md": "## [tool_calls] Step 1: search\nTool: search_flights\nArgs: {}\n"
                                      "Return: {}\nStatus: success\n", "response.md": "Done.\n"})

    class Answer:
        name, model = "fake", "m"

        def params(self) -> dict:
            return {}

        def complete(self, request, about: str = "") -> Completion:
            return Completion(verdicts(("It succeeded.", [("tool_calls", FULL_WIDTH)], "PASS")), replayed=True)

        def cancel(self) -> None:
            return None

    verdict = LLMJudge(Answer()).grade(run, (SemanticItem("1#1", "The search succeeds", "succeeds"),)).verdicts["1#1"]
    assert verdict.outcome is Outcome.FAIL and "proves nothing" in verdict.message


def test_specific_quotes_in_other_forms_still_count():
    assert not trivial("\uff2c\uff38\uff12\uff10\uff18\uff14")  # LX2084, full width
    assert not trivial("Your draft is saved.")
