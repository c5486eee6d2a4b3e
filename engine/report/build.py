"""Assemble grading.json and ground_truth.json from verdicts and run facts.

Pure functions: the same inputs give the same documents, whatever the machine,
the time or the process that runs them.

The documents are plain dicts, built in the field order of the models in
``engine.report.models`` (which is the byte order on disk) and not validated
here: validating every run's report cost as much as evaluating it, and the data
is ours. ``grading_report`` validates on demand, and the tests validate every
file written against the committed JSON Schema. Every float outside
``execution_metrics``, ``timing`` and ``grader`` is a ``rate()`` (see
``engine.report.render``, which relies on it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence, TypeGuard

from referee.dsl.frozen import frozen
from referee.engine.report.carry import CARRIED, DROPPED, with_verdict
from referee.engine.run.model import AGENT_SOURCES
from referee.engine.text import display_text
from referee.engine.caps import capped
from referee.engine.verdict import NOTES_ONLY, Outcome, Precision, Verdict

if TYPE_CHECKING:  # the models load pydantic: only the validating helpers need them
    from referee.engine.compile import CompiledAssertion
    from referee.engine.facts.claims import ClaimResult
    from referee.engine.report.models import GradingReport, GroundTruth
    from referee.engine.run.importers.source_map import SourceMap

MAX_LOCATIONS_IN_TEXT = 5
_PREFIX = {Outcome.ERROR: "ERROR: ", Outcome.NOT_GRADED: "NOT GRADED: "}
# What a JSON text can start with, after blanks (Python's json also reads NaN and
# Infinity): a quote starting with anything else is known not to parse.
_JSON_STARTS = frozenset('{["-0123456789tfnNI')
_QUOTED = json.JSONEncoder(ensure_ascii=False)  # raw text as a JSON string, as json.dumps writes it


@dataclass(frozen=True)
class Carried:
    """LLM verdicts across gradings (``engine.report.carry``): earlier items kept, by
    key; keys whose earlier verdict was dropped; ``grader_input`` of judged keys."""

    kept: dict[str, dict] = field(default_factory=dict)
    dropped: frozenset[str] = frozenset()
    inputs: dict[str, str] = field(default_factory=dict)


@frozen
class RunFacts:
    """Everything about one run that the report copies, computed beside its verdicts."""

    info: dict[str, Any]  # RunInfo's fields, in its order
    # metrics, metrics_source, timing and claims are None when not made: the grade
    # writes no report, and nothing else shows them (``engine.grade.run_facts``)
    metrics: dict[str, Any] | None
    metrics_source: str | None
    timing: dict[str, Any] | None
    claims: tuple[ClaimResult, ...] | None
    notes: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    # None: the calls that decide it are not all known (facts.metrics.known_skill_type),
    # or, with the metrics, not made
    skill_type: str | None
    tools: tuple[str, ...]
    problems: tuple[str, ...] = field(default=())
    source_map: SourceMap | None = None  # of an imported run
    # False when the transcript could not be read exactly or holds untrusted records:
    # then ``tools`` may not be every tool the run called.
    tools_certain: bool = True


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


VACUOUS_NOTE = "passed vacuously: nothing was there to examine"


def method_of(assertion: CompiledAssertion, judged: bool) -> str:
    """``ground_truth``, ``grader`` (judged by the LLM now) or ``not_graded``; an
    earlier LLM verdict kept is ``grader (carried over)`` (``carried_expectation``)."""
    return _method(_precision(assertion), judged)


def _method(precision: str, judged: bool, outcome: Outcome | None = None) -> str:
    if precision != _SEMANTIC:
        return "ground_truth"
    if judged:
        return "grader"
    # An assertion with a rule part and a judgement part, decided by its rule part.
    return "ground_truth" if outcome in (Outcome.PASS, Outcome.FAIL) else "not_graded"


def expectation(assertion: CompiledAssertion, verdict: Verdict, judged: bool = False,
                earlier: dict | None = None, grader_input: str | None = None,
                dropped: bool = False) -> dict[str, Any]:
    """One grading.json item: the verdict's sentence plus where its evidence stands.

    ``earlier`` is the item of an earlier grading.json whose LLM verdict is kept
    (``engine.report.carry``); ``grader_input`` is recorded on an item the LLM
    grader judged; ``dropped`` says an earlier LLM verdict could not be kept."""
    if earlier is not None:
        return carried_expectation(assertion, earlier)
    verdict = enforce_trust(verdict.within(capped))  # an LLM grader's verdict is bounded too
    evidence = render_evidence(verdict)
    if dropped:
        evidence += f" ({DROPPED})"
    places = [{"source": e.source, "file": e.file, "line": e.line, "step": e.step} for e in verdict.evidence]
    outcome = _OUTCOMES[verdict.outcome]
    if grader_input is not None:  # the verdict as written is part of the key (``carry.with_verdict``)
        grader_input = with_verdict(grader_input, outcome, evidence, places)
    return _item(assertion, outcome, evidence, _method(_precision(assertion), judged, verdict.outcome),
                 places, grader_input)


def carried_expectation(assertion: CompiledAssertion, earlier: dict) -> dict[str, Any]:
    """An earlier LLM verdict kept: its outcome, evidence and places, as written then,
    and who gave it (``carry.judged_by``); everything else from the assertion as it is now."""
    places = [place for place in earlier.get("evidence_location") or () if _is_place(place)]
    item = _item(assertion, earlier["outcome"], str(earlier.get("evidence", "")), CARRIED, places,
                 earlier["grader_input"])
    # This grade asked no model (its grader.llm is null): the item says who gave the verdict.
    if earlier.get("judged_by") is not None:
        item["judged_by"] = earlier["judged_by"]
    return item


def _item(assertion: CompiledAssertion, outcome: str, evidence: str, method: str, places: list,
          grader_input: str | None) -> dict[str, Any]:
    """One grading.json item: the verdict's part as given, the rest from the assertion."""
    precision = _precision(assertion)
    return {
        "text": display_text(assertion),
        "passed": outcome == _PASS,
        "evidence": evidence,
        "key": assertion.key,
        "outcome": outcome,
        "precision": precision,
        "evidence_source": str(assertion.evidence_source),
        "method": method,
        "gated": exclusion(precision, outcome, bool(assertion.gated)) is None,
        "check": assertion.check_source or "",
        "rules_location": assertion.rules_location,
        "evidence_location": places,
        "grader_input": grader_input,
    }


def _is_place(place: Any) -> bool:
    return (isinstance(place, dict) and list(place) == ["source", "file", "line", "step"]
            and isinstance(place["source"], str) and isinstance(place["file"], (str, type(None)))
            and all(_is_int(place[k]) or place[k] is None for k in ("line", "step")))


def in_sources(verdict: Verdict, source_map: SourceMap | None) -> Verdict:
    """The verdict with each place in an imported run's written files replaced by the
    original source's (``session.jsonl:42``), through its source map, and quotes
    made text the source holds (``engine.run.importers.citing``).

    A run that was not imported (no map) keeps its verdict as it is.
    """
    if source_map is None:
        return verdict
    from referee.engine.run.importers.citing import in_sources as cited

    return cited(verdict, source_map)


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
    if verdict.vacuous and verdict.outcome is Outcome.PASS:
        text += f" ({VACUOUS_NOTE})"
    return text


def _quoted(quote: str) -> str:
    """Quotes that are already JSON values ('"168"', '2', '{...}') are shown as they are;
    raw text is put in double quotes, so every quote reads the same way."""
    if quote.lstrip(" \t\n\r")[:1] not in _JSON_STARTS:  # "Tool: x": no need to try
        return _QUOTED.encode(quote)
    try:
        json.loads(quote)
    except ValueError:
        return _QUOTED.encode(quote)
    return quote


def summary(items: Sequence[dict]) -> dict[str, Any]:
    """Errors count as failed; not-graded items are counted apart, outside total."""
    outcomes = [item["outcome"] for item in items]
    passed = outcomes.count("pass")
    errors = outcomes.count("error")
    failed = outcomes.count("fail") + errors
    total = passed + failed
    return {"passed": passed, "failed": failed, "total": total, "pass_rate": rate(passed, total),
            "errors": errors, "not_graded": outcomes.count("not_graded")}


def gate(items: Sequence[dict]) -> dict[str, Any]:
    """What counts toward the release decision: gated assertions that were graded."""
    counted, excluded = [], []
    for item in items:
        reason = exclusion(item["precision"], item["outcome"], item["gated"])
        if reason:
            excluded.append({"assertion": item["key"], "reason": reason})
        else:
            counted.append(item)
    passed = sum(1 for item in counted if item["outcome"] == "pass")
    return {"counted": [item["key"] for item in counted], "excluded": excluded, "passed": passed,
            "total": len(counted), "pass_rate": rate(passed, len(counted))}


def exclusion(precision: str, outcome: str, gated: bool) -> str | None:
    """Why an item does not count toward the gate; None when it counts.

    The one rule behind both an item's ``gated`` and the ``gate`` block: an item is
    gated exactly when this is None. (A gated item's own ``gated`` is true, so
    reading it back here gives the same answer.)"""
    if precision == "existence":
        return "existence only: shows that something is there, not that it is right"
    if outcome == "not_graded":
        return "semantic and not graded: no LLM grader was given"
    if not gated:
        return "not gated by the rules"
    return None


def gate_status(passed: int, total: int) -> str:
    """A run's status from its gate: PASS when every counted assertion passed, FAIL
    when one did not, EMPTY when none counted."""
    if total == 0:
        return "EMPTY"
    return "PASS" if passed == total else "FAIL"


def rate(passed: int, total: int) -> float:
    """A deterministic float: 4 decimals, 0.0 when there is nothing to count."""
    return round(passed / total, 4) if total else 0.0


def grading_document(assertions: Sequence[CompiledAssertion], verdicts: Sequence[Verdict], facts: RunFacts,
                     feedback: dict | None, grader: dict, judged: frozenset[str] = frozenset(),
                     grader_seconds: float | None = None, carried: Carried | None = None) -> dict[str, Any]:
    """grading.json for one run, as a plain dict; ``judged`` holds the keys an LLM
    grader decided. ``feedback`` may be None while the eval's critique is pending
    (``engine.report.run_report`` puts it in once every run of the eval is graded).
    ``carried`` holds what ``engine.report.carry`` found for the LLM's verdicts."""
    verdicts = [in_sources(v, facts.source_map) for v in verdicts]
    carried = carried or Carried()
    items = [expectation(a, v, a.key in judged, carried.kept.get(a.key), carried.inputs.get(a.key),
                         a.key in carried.dropped)
             for a, v in zip(assertions, verdicts, strict=True)]
    uncertainties, needs_review, workarounds = facts.notes
    return {
        "expectations": items,
        "summary": summary(items),
        "execution_metrics": facts.metrics,
        "execution_metrics_source": facts.metrics_source,
        "timing": None if facts.timing is None else timing_block(facts.timing, grader_seconds),
        "claims": None if facts.claims is None else
                  [{"claim": c.claim, "type": c.type, "verified": c.verified, "evidence": c.evidence}
                   for c in facts.claims],
        "user_notes_summary": {"uncertainties": list(uncertainties), "needs_review": list(needs_review),
                               "workarounds": list(workarounds)},
        "eval_feedback": feedback,
        "skill_type": facts.skill_type,
        "gate": gate(items),
        "run": facts.info,
        "problems": list(facts.problems),
        "grader": grader,
    }


def grading_report(assertions: Sequence[CompiledAssertion], verdicts: Sequence[Verdict], facts: RunFacts,
                   feedback: dict, grader: dict, judged: frozenset[str] = frozenset(),
                   grader_seconds: float | None = None) -> GradingReport:
    """``grading_document``, validated: for tests and callers that want the model."""
    from referee.engine.report.models import GradingReport

    return GradingReport.model_validate(
        grading_document(assertions, verdicts, facts, feedback, grader, judged, grader_seconds))


def timing_block(timing: dict[str, Any], grader_seconds: float | None) -> dict[str, Any]:
    """timing.json as copied (``engine.facts.metrics.copied_timing``, which also
    makes ``total_tokens`` where the file gives only its parts), with the grader's
    own time added."""
    block = dict(timing)
    if grader_seconds is not None:
        block["grader_duration_seconds"] = round(grader_seconds, 3)
    return block


def ground_truth(report: dict[str, Any]) -> dict[str, Any]:
    """The deterministic checks of a grading document, alone (ground_truth.json)."""
    checks = [{"assertion": item["text"], "method": "ground_truth", "passed": item["passed"],
               "evidence": item["evidence"], "key": item["key"], "outcome": item["outcome"]}
              for item in report["expectations"] if item["method"] == "ground_truth"]
    return {"checks": checks, "grader": report["grader"]}


def validated_ground_truth(report: dict[str, Any]) -> GroundTruth:
    """``ground_truth``, validated against the model."""
    from referee.engine.report.models import GroundTruth

    return GroundTruth.model_validate(ground_truth(report))


def _precision(assertion: CompiledAssertion) -> str:
    """The assertion's precision as text; ValueError for one that is not a Precision."""
    known = _PRECISIONS.get(assertion.precision)
    return known if known is not None else Precision(assertion.precision).value


# Precision(x).value by lookup (a str enum's member hashes and compares as its value),
# for the two reads of every item of every report; an enum member's .value is a
# property call, so the values every item compares with are read once, here.
_PRECISIONS = {member: member.value for member in Precision}
_OUTCOMES = {member: member.value for member in Outcome}
_SEMANTIC, _PASS = Precision.SEMANTIC.value, Outcome.PASS.value


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
