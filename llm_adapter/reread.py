"""A second reading: the same question asked again, in a fresh conversation.

``referee validate --llm`` measures how often a judge changes its mind (A/A): each
run's semantic assertions are graded twice. Asked twice with the very same
request, a cassette would hold one answer (its key is the request), so the
second reading adds one sentence to the instructions saying that it is an
independent second reading. The question, the run and the rules of grading
are unchanged; a live model is asked again, and a cassette keeps both answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.llm_adapter.backends import Backend, ChatRequest, Completion
from referee.llm_adapter.judge import LLMJudge

NOTE = "\n\nThis is an independent second reading of the same run: judge it afresh.\n"


@dataclass
class SecondReading:
    """A backend that marks every request as a second reading, then asks ``inner``."""

    inner: Backend

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def model(self) -> str:
        return self.inner.model

    def params(self) -> dict:
        return self.inner.params()

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        marked = ChatRequest(request.system + NOTE, request.turns)
        return self.inner.complete(marked, about=f"second reading: {about}")

    def cancel(self) -> None:
        self.inner.cancel()


def second(judge: LLMJudge) -> LLMJudge:
    """``judge`` asking every question as a second reading."""
    return LLMJudge(SecondReading(judge.backend), judge.batch, judge.price_per_million, judge.redactor)
