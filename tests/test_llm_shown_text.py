"""A grader's verdict rests on what it was shown: a piece longer than the prompt shows
is cut there, and a quote found only past the cut carries no PASS."""

from __future__ import annotations

from llm_server import OneReply, small_run, verdicts

from referee.engine.judging import SemanticItem
from referee.engine.verdict import Outcome
from referee.llm_adapter.judge import LLMJudge

ITEM = SemanticItem("1#1", "The booking is confirmed", "confirmed")
FILLER = "filler line of text\n" * 2500  # 50,000 characters: past the 40,000 shown
LATE = "Your booking LX2084 is confirmed."



def grade(files: dict[str, str], source: str, quote: str):
    backend = OneReply(verdicts(("confirmed", [(source, quote)], "PASS")))
    verdict = LLMJudge(backend).grade(small_run(files), (ITEM,)).verdicts["1#1"]
    return verdict, backend.asked[0]


def test_a_quote_past_what_the_grader_was_shown_carries_no_pass():
    verdict, asked = grade({"response.md": FILLER + LATE + "\n"}, "response", LATE)
    assert LATE not in asked and "more characters not shown" in asked
    assert verdict.outcome is Outcome.FAIL and "not in response" in verdict.message


def test_the_same_in_an_output_file():
    verdict, asked = grade({"response.md": "Done.\n", "log.txt": FILLER + LATE + "\n"}, "outputs", LATE)
    assert LATE not in asked
    assert verdict.outcome is Outcome.FAIL


def test_a_quote_cut_in_the_middle_of_a_word_is_not_found_either():
    # shown: "... LX208", the rest of the word past the cut
    text = "x" * 39_989 + " code LX2084 booked"
    cut = text[:40_000]
    assert cut.endswith("LX208")
    verdict, _ = grade({"response.md": text}, "response", "code LX208")
    assert verdict.outcome is Outcome.FAIL


def test_a_quote_within_what_was_shown_still_passes():
    verdict, asked = grade({"response.md": LATE + "\n" + FILLER}, "response", LATE)
    assert LATE in asked and verdict.outcome is Outcome.PASS
    assert verdict.evidence[0].line == 1
