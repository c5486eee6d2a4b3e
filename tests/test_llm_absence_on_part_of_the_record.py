"""An expectation that something is absent, or holds throughout ("the response shows no
internal ids", "every row has a price"), cannot pass on part of the record: a piece the
grader was shown only up to its cut (40,000 characters), or an output file it could not
read as text, may hold what it says is not there. Before, the grader's PASS for "The
response shows no internal ids" on a response whose id-7F3A lay past the cut stood;
now it is an ERROR that says what was not shown. A PASS on the same record for an
expectation that something is there rests on its quote, as before, and so does any
PASS on a record shown whole."""

from __future__ import annotations

import pytest
from llm_server import OneReply, small_run, verdicts

from referee.engine.judging import SemanticItem
from referee.engine.verdict import Outcome
from referee.llm_adapter.judge import LLMJudge

OPENING = "Your booking LX2084 for Ana Müller is confirmed.\n"
FILLER = "filler line of text\n" * 2500  # 50,000 characters: past the 40,000 shown
LATE = "Internal reference: id-7F3A\n"



def grade(files: dict[str, str], sentence: str):
    reply = verdicts(("nothing of the kind is shown", [("response", OPENING.strip())], "PASS"))
    return LLMJudge(OneReply(reply)).grade(small_run(files), (SemanticItem("1#1", sentence, sentence),)).verdicts["1#1"]


@pytest.mark.parametrize("sentence", [
    "The response shows no internal ids", "The response never shows an internal id",
    "The response doesn't show internal ids", "Only the booking is mentioned",
    "Every line of the response is addressed to the traveller", "The response is free of internal ids",
])
def test_an_absence_does_not_pass_on_a_piece_cut_short(sentence):
    verdict = grade({"response.md": OPENING + FILLER + LATE}, sentence)
    assert verdict.outcome is Outcome.ERROR, verdict.message
    assert "outputs/response.md" in verdict.message and "40000 of" in verdict.message


def test_an_absence_does_not_pass_beside_an_output_not_read_as_text():
    run = small_run({"response.md": OPENING, "dump.bin": b"\xff\xfe binary"})  # type: ignore[dict-item]
    reply = verdicts(("nothing of the kind is shown", [("response", OPENING.strip())], "PASS"))
    item = SemanticItem("1#1", "No output holds an internal id", "No output holds an internal id")
    verdict = LLMJudge(OneReply(reply)).grade(run, (item,)).verdicts["1#1"]
    assert verdict.outcome is Outcome.ERROR, verdict.message
    assert "outputs/dump.bin" in verdict.message


def test_a_presence_passes_on_its_quote_and_an_absence_on_a_record_shown_whole():
    assert grade({"response.md": OPENING + FILLER + LATE}, "The response confirms the booking").outcome is Outcome.PASS
    whole = OPENING + FILLER[:30_000] + LATE.replace("id-7F3A", "(none)")
    assert grade({"response.md": whole}, "The response shows no internal ids").outcome is Outcome.PASS
