"""A line an agent's report marks as not done ("- [ ] Unit tests pass", "❌ Unit tests
pass", "✗ ...") says the opposite of its words: a grader's quote of the words without
the mark leaves it out, and is not found, so a PASS cannot rest on it. The same
words marked done ("- [x]", "✅") are found, and so is the whole line with its mark."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import RunEvidence, Segment
from referee.llm_adapter.quotes import locate
from referee.llm_adapter.reply import AssertionReply, Quote
from referee.llm_adapter.verify import judge_item

WORDS = "Unit tests pass on the main branch"


def found(text: str, quote: str) -> bool:
    return locate(quote, (Segment("response", "outputs/response.md", 1, text),)) is not None


@pytest.mark.parametrize("line", [
    f"- [ ] {WORDS}", f"* [ ] **{WORDS}**", f"❌ {WORDS}", f"\u274c\ufe0f {WORDS}", f"✗ {WORDS}",
    f"✘ {WORDS}", f"☐ {WORDS}", f"🚫 {WORDS}", f"- ❌ {WORDS}",
])
def test_words_marked_not_done_are_not_found_without_their_mark(line):
    text = f"## Checklist\n\n{line}\n- [x] Docs updated for release 2.1\n"
    assert not found(text, WORDS)
    assert found(text, line)
    evidence = RunEvidence((Segment("response", "outputs/response.md", 1, text),), "task")
    entry = AssertionReply(id="A1", reasoning="the tests pass", verdict="PASS",
                           evidence=[Quote(source="response", quote=WORDS)])
    assert judge_item(entry, evidence).outcome.value == "fail"


@pytest.mark.parametrize("line", [f"- [x] {WORDS}", f"- [X] {WORDS}", f"✅ {WORDS}", f"✔ {WORDS}",
                                  f"- {WORDS}", f"1. {WORDS}"])
def test_words_marked_done_or_not_marked_are_found(line):
    assert found(f"## Checklist\n\n{line}\n", WORDS)
