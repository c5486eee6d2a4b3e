"""Assemble grading.json and ground_truth.json from verdicts and run facts.

Pure functions: the same inputs give the same models, whatever the machine,
the time or the process that runs them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.model import AGENT_SOURCES
from engine.report.models import (
    EvalFeedback, EvidenceLocation, Expectation, Gate, GateExclusion, GraderInfo, GradingReport,
    GroundTruth, GroundTruthCheck, RunInfo, Summary, UserNotesSummary, Claim,
)
from engine.verdict import Outcome, Precision, Verdict

NOTES_ONLY = "rests on agent notes alone; no tool call or output backs it"
MAX_LOCATIONS_IN_TEXT = 5
_PREFIX = {Outcome.ERROR: "ERROR: ", Outcome.NOT_GRADED: "NOT GRADED: "}


@dataclass(frozen=True)
class RunFacts:
    """Everything about one run that the report copies, computed beside its verdicts."""

    info: RunInfo
    metrics: dict[str, Any]
    metrics_source: str
    timing: dict[str, Any]
    claims: tuple[Any, ...]  # engine.claims.ClaimResult
    notes: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    skill_type: str
    tools: tuple[str, ...]
    problems: tuple[str, ...] = field(default=())


def enforce_trust(verdict: Verdict) -> Verdict:
    """A PASS whose evidence all comes from agent notes is a FAIL, and says why.

    The evaluator already applies this rule; it is checked again here because a
    report must never show such a pass, whatever produced the verdict.
    """
    if verdict.outcome is not Outcome.PASS:
        return verdict
    sources = {item.source for item in verdict.evidence}
    if verdict.notes_only or (sources and sources <= AGENT_SOURCES):
        return verdict.with_outcome(Outcome.FAIL, f"FAIL: {NOTES_ONLY}. {verdict.message}")
    return verdict


def method_of(assertion: Any, judged: bool) -> str:
    if _precision(assertion) != Precision.SEMANTIC.value:
        return "ground_truth"
    return "grader" if judged else "not_graded"


def expectation(assertion: Any, verdict: Verdict, judged: bool = False) -> Expectation:
    """One grading.json item: the verdict's sentence plus where its evidence stands."""
    verdict = enforce_trust(verdict)
    locations = [EvidenceLocation(source=e.source, file=e.file, line=e.line, step=e.step)
                 for e in verdict.evidence]
    return Expectation(
        text=display_text(assertion),
        passed=verdict.outcome is Outcome.PASS,
        evidence=render_evidence(verdict),
        key=assertion.key,
        outcome=verdict.outcome.value,
        precision=_precision(assertion),
        evidence_source=assertion.evidence_source,
        method=method_of(assertion, judged),
        gated=bool(assertion.gated),
        check=assertion.check_source or "",
        rules_location=assertion.rules_location,
        evidence_location=locations,
    )


def display_text(assertion: Any) -> str:
    """Never empty: consumers key rows by this text ("expect 8" alone, with no
    evals.json to give its sentence, falls back to its place in the rules)."""
    return assertion.text or assertion.check_source or f"assertion {assertion.key} ({assertion.rules_location})"


def render_evidence(verdict: Verdict) -> str:
    """The verdict's message, then each evidence place with its verbatim quote."""
    text = _PREFIX.get(verdict.outcome, "") + verdict.message
    places = []
    for item in verdict.evidence[:MAX_LOCATIONS_IN_TEXT]:
        place = item.where()
        places.append(f"{place}: {_quoted(item.quote)}" if item.quote else place)
    if places:
        more = len(verdict.evidence) - MAX_LOCATIONS_IN_TEXT
        tail = f"; and {more} more" if more > 0 else ""
        text = f"{text} [at {'; '.join(places)}{tail}]"
    return text


def _quoted(quote: str) -> str:
    """Quotes that are already JSON values ('"168"', '2', '{...}') are shown as they are;
    raw text is put in double quotes, so every quote reads the same way."""
    try:
        json.loads(quote)
    except ValueError:
        return json.dumps(quote, ensure_ascii=False)
    return quote


def summary(items: Sequence[Expectation]) -> Summary:
    """Errors count as failed; not-graded items are counted apart, outside total."""
    passed = sum(1 for item in items if item.outcome == "pass")
    failed = sum(1 for item in items if item.outcome in ("fail", "error"))
    total = passed + failed
    return Summary(passed=passed, failed=failed, total=total, pass_rate=rate(passed, total),
                   errors=sum(1 for item in items if item.outcome == "error"),
                   not_graded=sum(1 for item in items if item.outcome == "not_graded"))


def gate(items: Sequence[Expectation]) -> Gate:
    """What counts toward the release decision: gated assertions that were graded."""
    counted, excluded = [], []
    for item in items:
        reason = _exclusion(item)
        if reason:
            excluded.append(GateExclusion(assertion=item.key, reason=reason))
        else:
            counted.append(item)
    passed = sum(1 for item in counted if item.outcome == "pass")
    return Gate(counted=[item.key for item in counted], excluded=excluded, passed=passed,
                total=len(counted), pass_rate=rate(passed, len(counted)))


def _exclusion(item: Expectation) -> str | None:
    if item.precision == "existence":
        return "existence only: shows that something is there, not that it is right"
    if item.outcome == "not_graded":
        return "semantic and not graded: no LLM grader was given"
    if not item.gated:
        return "not gated by the rules"
    return None


def rate(passed: int, total: int) -> float:
    """A deterministic float: 4 decimals, 0.0 when there is nothing to count."""
    return round(passed / total, 4) if total else 0.0


def grading_report(assertions: Sequence[Any], verdicts: Sequence[Verdict], facts: RunFacts,
                   feedback: dict, grader: GraderInfo, judged: frozenset[str] = frozenset(),
                   grader_seconds: float | None = None) -> GradingReport:
    """grading.json for one run; ``judged`` holds the keys an LLM grader decided."""
    items = [expectation(a, v, a.key in judged) for a, v in zip(assertions, verdicts, strict=True)]
    uncertainties, needs_review, workarounds = facts.notes
    return GradingReport(
        expectations=items,
        summary=summary(items),
        execution_metrics=facts.metrics,
        execution_metrics_source=facts.metrics_source,
        timing=timing_block(facts.timing, grader_seconds),
        claims=[Claim(claim=c.claim, type=c.type, verified=c.verified, evidence=c.evidence)
                for c in facts.claims],
        user_notes_summary=UserNotesSummary(uncertainties=list(uncertainties),
                                            needs_review=list(needs_review),
                                            workarounds=list(workarounds)),
        eval_feedback=EvalFeedback.model_validate(feedback),
        skill_type=facts.skill_type,
        gate=gate(items),
        run=facts.info,
        problems=list(facts.problems),
        grader=grader,
    )


def timing_block(timing: dict[str, Any], grader_seconds: float | None) -> dict[str, Any]:
    """timing.json as written, with ``total_tokens`` kept (summed from input and
    output tokens when only those are given) and the grader's own time added."""
    block = dict(timing)
    if "total_tokens" not in block:
        given, taken = block.get("input_tokens"), block.get("output_tokens")
        if _is_int(given) and _is_int(taken):
            block["total_tokens"] = given + taken
    if grader_seconds is not None:
        block["grader_duration_seconds"] = round(grader_seconds, 3)
    return block


def ground_truth(report: GradingReport) -> GroundTruth:
    """The deterministic checks of a report, alone."""
    checks = [GroundTruthCheck(assertion=item.text, method="ground_truth", passed=item.passed,
                               evidence=item.evidence, key=item.key, outcome=item.outcome)
              for item in report.expectations if item.method == "ground_truth"]
    return GroundTruth(checks=checks, grader=report.grader)


def _precision(assertion: Any) -> str:
    return getattr(assertion.precision, "value", assertion.precision)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
