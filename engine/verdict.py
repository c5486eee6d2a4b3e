"""Verdicts are data: an outcome, the values compared, and the evidence with its place.

A runtime problem (no match, wrong type, unreadable file, a text too long for a
regex) is a verdict with outcome ``error`` and a message, never an exception that
stops a run.
"""

from __future__ import annotations

from dataclasses import field, replace
from enum import Enum
from typing import Any, Callable, ClassVar

from referee.dsl.frozen import frozen

# Why a PASS resting on agent notes alone is a FAIL: the trust rule's one wording.
NOTES_ONLY = "rests on agent notes alone; no tool call or output backs it"


class Outcome(str, Enum):
    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    NOT_GRADED = "not_graded"  # semantic, and no LLM grader was given


class Precision(str, Enum):
    EXACT_MATCH = "exact_match"
    EXISTENCE = "existence"
    SEMANTIC = "semantic"


@frozen
class Evidence:
    """One piece of evidence: what was seen, and exactly where.

    ``source`` is one of ``engine.run.model.SOURCES``. ``file`` is relative to the run
    directory; ``line`` is 1-based; ``step`` is the transcript step when there is one.
    ``quote`` is verbatim text from the source (shortened with an ellipsis if long).
    """

    source: str
    file: str | None = None
    line: int | None = None
    step: int | None = None
    quote: str = ""

    def where(self) -> str:
        """``step 3, outputs/transcript.md:22``, either part alone, or the source."""
        if not self.file:
            return self.source if self.step is None else f"step {self.step}"
        # An imported run's source (a file name, no folder) may carry a JSON Pointer
        # (``chat.jsonl#/3/content``): the line goes before it.
        name, mark, pointer = self.file.partition("#")
        if "/" in name or not pointer.startswith("/"):
            name, mark, pointer = self.file, "", ""
        place = self.file if self.line is None else f"{name}:{self.line}{mark}{pointer}"
        return place if self.step is None else f"step {self.step}, {place}"


@frozen
class Verdict:
    """The result of one check on one run.

    ``message`` is the human evidence sentence written into grading.json; it states
    the compared values ("expected '10', found '20' in step 3 args.docStatus").
    ``vacuous`` marks a pass that holds only because nothing was there to examine
    (``all``/``no`` over an empty selection, a negation over a missing source).
    ``notes_only`` marks a pass whose only support is agent notes.
    """

    outcome: Outcome
    message: str
    evidence: tuple[Evidence, ...] = ()
    expected: Any = None
    observed: Any = None
    vacuous: bool = False
    notes_only: bool = False
    details: tuple[str, ...] = field(default=())
    # Not a field: the bound it was found within (see within).
    _within: ClassVar[Callable[["Verdict"], "Verdict"] | None] = None

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.PASS

    def within(self, bound: Callable[["Verdict"], "Verdict"]) -> "Verdict":
        """``bound(self)``, for a ``bound`` that returns a verdict already within it
        unchanged (``engine.caps.capped``): once this verdict is found within it, it
        is not looked over again (a report bounds every verdict the evaluator did).
        The mark is not a field: eq, hash and repr never see it."""
        if self._within is bound:
            return self
        bounded = bound(self)
        if bounded is self:  # set past the frozen __setattr__
            object.__setattr__(self, "_within", bound)
        return bounded

    def with_outcome(self, outcome: Outcome, message: str | None = None) -> "Verdict":
        return replace(self, outcome=outcome, message=self.message if message is None else message)
