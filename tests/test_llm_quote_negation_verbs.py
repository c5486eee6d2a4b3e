"""A grader's quote that starts after a word saying the act did not happen leaves
that word out, and says the opposite of the text: "retrieve any news articles"
quoted from ToolBench's real reply "I am unable to retrieve any news articles"
(tests/fixtures/real/openai/toolbench-seo-api-retried, see its SOURCE.md), "send
the email" from "failed to send the email", "confirmed" from "not \"confirmed\"",
"not (yet) confirmed", "non-confirmed" or "0 bookings confirmed". Such a quote is
not found, so a PASS cannot rest on it; the whole sentence still is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.llm_adapter.evidence import RunEvidence, Segment
from referee.llm_adapter.quotes import locate
from referee.llm_adapter.reply import AssertionReply, Quote
from referee.llm_adapter.verify import judge_item

TOOLBENCH = (Path(__file__).parent / "fixtures" / "real" / "openai" / "toolbench-seo-api-retried"
             / "seo-api-iphone-14.json")


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


def _real_reply() -> str:
    messages = json.loads(TOOLBENCH.read_text(encoding="utf-8"))
    return next(m["content"] for m in messages if m.get("role") == "assistant"
                and "unable to retrieve any news" in (m.get("content") or ""))


def test_a_pass_on_what_the_real_reply_says_it_could_not_do_is_not_a_pass():
    reply = _real_reply()
    evidence = RunEvidence((Segment("response", "outputs/response.md", 1, reply),), "task")
    entry = AssertionReply(id="A1", reasoning="the reply gives news on the iPhone 14", verdict="PASS",
                           evidence=[Quote(source="response",
                                           quote="retrieve any news articles related to the iPhone 14")])
    verdict = judge_item(entry, evidence)
    assert verdict.outcome.value == "fail", verdict.message
    whole = entry.model_copy(update={"evidence": [Quote(
        source="response", quote="I am unable to retrieve any news articles related to the iPhone 14")]})
    assert judge_item(whole, evidence).outcome.value == "pass"


@pytest.mark.parametrize("text", [
    "The agent failed to delete the temporary files in /tmp/build.",
    "The agent fails to delete the temporary files in /tmp/build.",
    "The agent was unable to delete the temporary files in /tmp/build.",
    "The agent refused to delete the temporary files in /tmp/build.",
    "The agent was not able to delete the temporary files in /tmp/build.",
    "The agent did not manage to delete the temporary files in /tmp/build.",
    "It was impossible to delete the temporary files in /tmp/build.",
    "The agent did not \"delete the temporary files in /tmp/build\".",
    "The agent did not (yet) delete the temporary files in /tmp/build.",
    "The agent did not \u201cdelete the temporary files in /tmp/build\u201d.",
])
def test_a_quote_after_a_word_that_says_it_did_not_happen_is_not_found(text):
    quote = "delete the temporary files in /tmp/build"
    assert not found(text, quote)
    assert not found(text, "agent ... " + quote)
    assert found(text, text)


@pytest.mark.parametrize("text, quote", [
    ("The booking is non-confirmed for LX2084.", "confirmed for LX2084"),
    ("The booking is un-confirmed for LX2084.", "confirmed for LX2084"),
    ("0 bookings confirmed for LX2084.", "bookings confirmed for LX2084"),
    ("Zero bookings confirmed for LX2084.", "bookings confirmed for LX2084"),
])
def test_a_quote_after_a_negating_prefix_or_a_count_of_none_is_not_found(text, quote):
    assert not found(text, quote)
    assert found(text, text.rstrip("."))


@pytest.mark.parametrize("text, quote", [
    ("The agent tried to delete the temporary files in /tmp/build.", "delete the temporary files"),
    ("The agent managed to delete the temporary files in /tmp/build.", "delete the temporary files"),
    ("Version 2.0 bookings confirmed for LX2084.", "bookings confirmed for LX2084"),
    ("Build 10 bookings confirmed for LX2084.", "bookings confirmed for LX2084"),
    ("The non-refundable fare LX2084 was booked.", "The non-refundable fare LX2084"),
    ("The flight was not cancelled (it is confirmed for LX2084).", "confirmed for LX2084"),
])
def test_other_words_before_the_quote_keep_it_found(text, quote):
    assert found(text, quote)
