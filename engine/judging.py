"""The contract between the engine and an LLM grader.

The engine hands a ``Judge`` only the semantic assertions of one run. This module
imports nothing of ``llm_adapter``: the deterministic path must run without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol, Sequence

from referee.dsl.frozen import frozen
from referee.engine.verdict import Outcome, Verdict

if TYPE_CHECKING:
    from referee.engine.compile import CompiledAssertion
    from referee.engine.run.workspace import Run


@frozen
class SemanticItem:
    """One semantic assertion to judge. ``key`` is unique within the run."""

    key: str
    text: str  # the human sentence (grading.json "text")
    rubric: str  # what the grader must decide; the ``semantic "..."`` text or the sentence


def semantic_item(assertion: CompiledAssertion) -> SemanticItem:
    """The item a judge is handed for ``assertion``: its sentence, and what to decide."""
    return SemanticItem(assertion.key, assertion.text, assertion.semantic_rubric or assertion.text)


@frozen
class GraderClaim:
    claim: str
    type: str  # factual | process | quality
    verified: bool
    evidence: str


@frozen
class GraderUsage:
    """What judging one run cost. Zero and None where unknown."""

    model: str = ""
    backend: str = ""
    endpoint: str | None = None  # the server that answered (no secret); None when none did
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    duration_seconds: float = 0.0
    replayed: bool = False


@dataclass(frozen=True)
class JudgeResult:
    verdicts: dict[str, Verdict]  # by SemanticItem.key; every key must be present
    claims: tuple[GraderClaim, ...] = ()
    feedback: tuple[str, ...] = ()
    usage: GraderUsage = field(default_factory=GraderUsage)


class Judge(Protocol):
    """Grades the semantic assertions of one run. Must never raise for a bad reply:
    a reply it cannot use is an ``error`` verdict for the assertions concerned."""

    def grade(self, run: Run, items: Sequence[SemanticItem]) -> JudgeResult: ...


def not_shown(run: Run) -> str | None:
    """Why the run cannot be shown to the grader as it is, so that it is not asked and
    its semantic assertions are ERRORs; None when it can. A check of referee's own on
    such a run is an ERROR too (``engine.checks.run_sources``): the grader's verdict would
    rest on a record referee knows it did not read, or not in full, and "the agent never
    deleted a file" would pass on what neither could see. That is:

    - a transcript or response that could not be read exactly (binary, too large, not
      UTF-8: only a lossy copy is kept, for display);
    - a record that lies in a session log nobody imported: the grader would read the raw
      log as an output file, the agent's own words as what it delivered;
    - calls that may be missing (a subagent whose transcript is not there, a line that
      may hold a call and was not read): the grader would judge the calls it was shown
      as if they were all the agent made;
    - outputs that cannot all be listed (a link to a folder in outputs/, not followed):
      the grader would be shown the files listed as all the run delivered, and "no
      file holds a password" would pass on a folder nobody read."""
    for found in (run.transcript, run.response):
        problem = getattr(found, "unreadable", None)
        if problem is not None:
            return f"{problem.path} cannot be used: {problem.message}; the grader is not asked"
    log = getattr(run, "unimported_log", None)
    if log is not None:
        return f"{log.path} {log.message}; the grader is not asked"
    incomplete = run.every_call.incomplete()
    if incomplete is not None:
        return f"{incomplete}; the grader is not asked"
    unwalked = run.unlisted_outputs()
    if unwalked:  # as a rule over the outputs is an ERROR (engine.checks.run_sources)
        return f"the outputs cannot all be listed: {unwalked[0]}; the grader is not asked"
    return None


# ------------------------------------------------ a literal part and a judgement part


@frozen
class Awaiting(Verdict):
    """NOT_GRADED for an assertion that is part rule, part judgement ("lists every
    date from the input and invents no facts"), whose rule part did not decide it:
    ``rule_part`` says what that part found, ``evidence`` cites it, and the
    judgement part goes to the grader."""

    rule_part: str = ""


RULE_DECIDED = "decided by the rule part, without the grader"


def judged(waiting: Verdict, verdict: Verdict) -> Verdict:
    """The grader's ``verdict`` on an assertion that was ``waiting`` for it: for one
    with a rule part, it says that the grader decided, after what the rule part
    found, and keeps that part's evidence beside the grader's."""
    if not isinstance(waiting, Awaiting) or verdict.outcome not in (Outcome.PASS, Outcome.FAIL):
        return verdict
    evidence = tuple(dict.fromkeys(waiting.evidence + verdict.evidence))
    return replace(verdict, message=f"the rule part: {waiting.rule_part}; decided by the grader: "
                   f"{verdict.message}", evidence=evidence)
