"""The JSON that ``referee grade`` writes: grading.json and ground_truth.json.

Field order here is the byte order on disk (serialisation keeps declaration order),
so reordering fields changes every report: do it only on purpose, and regenerate
``engine/schemas/*.schema.json``. The first fields of grading.json are the ones
skill-creator's aggregator and viewer read (``expectations[].text/passed/evidence``,
``summary.*``, ``timing``, ``execution_metrics``, ``user_notes_summary``); the rest
are referee's additions, which those consumers ignore.

These models are also what every reader of a written report checks it against
(``engine.decision.shape``, through ``engine.report.model_shape``): a field changed
here is read back as it is written.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from referee.engine.report.marker import GRADER_NAME

Outcome = Literal["pass", "fail", "error", "not_graded"]
Method = Literal["ground_truth", "grader", "grader (carried over)", "not_graded"]
PrecisionName = Literal["exact_match", "semantic", "existence"]


class _Model(BaseModel):
    # Unknown keys are an error when a report is read back: a typo must not pass.
    model_config = ConfigDict(extra="forbid", frozen=True)


class EvidenceLocation(_Model):
    """Where one piece of evidence stands; ``file`` is relative to the run directory."""

    source: str
    file: str | None = None
    line: int | None = None
    step: int | None = None


class JudgedBy(_Model):
    """Who gave a verdict carried over from an earlier grade: that grade's
    ``grader.llm`` without its usage (the tokens and cost were that grade's), and the
    version of referee that asked."""

    model: str
    backend: str
    endpoint: str | None = None
    replayed: bool
    referee_version: str


class Expectation(_Model):
    """One assertion's result. ``passed`` is true only for outcome ``pass``.

    ``gated`` is true exactly when the ``gate`` block counts the item.
    ``grader_input`` (on items the LLM grader judged, or whose earlier verdict was
    kept; null on the others) digests the assertion's wording, the run's files
    the grader saw, who judged it (``judged_by``, or ``grader.llm`` on the grade
    that judged it) and the verdict it gave (outcome, evidence and places).
    ``judged_by`` is written on an item whose earlier verdict was kept (method
    ``grader (carried over)``) only: the grade that carries it asked no model, so its
    ``grader.llm`` is null, and this says who gave the verdict."""

    text: str
    passed: bool
    evidence: str
    key: str
    outcome: Outcome
    precision: PrecisionName
    evidence_source: str
    method: Method
    gated: bool
    check: str
    rules_location: str
    evidence_location: list[EvidenceLocation]
    grader_input: str | None = None
    judged_by: JudgedBy | None = None

    @model_serializer(mode="wrap")
    def _written(self, handler: SerializerFunctionWrapHandler):
        # ``judged_by`` is written on carried items only, so the reports of every
        # other item read as they did before it existed.
        data = handler(self)
        if data.get("judged_by") is None:
            data.pop("judged_by", None)
        return data


class Summary(_Model):
    """Counts over the graded items. ``total = passed + failed``; errors count as
    failed; not-graded items are outside all three and counted in ``not_graded``."""

    passed: int
    failed: int
    total: int
    pass_rate: float
    errors: int
    not_graded: int


class Claim(_Model):
    claim: str
    type: Literal["process", "factual", "quality"]
    verified: bool
    evidence: str


class UserNotesSummary(_Model):
    uncertainties: list[str]
    needs_review: list[str]
    workarounds: list[str]


class Suggestion(_Model):
    reason: str
    assertion: str | None = None


class CritiqueSuggestion(Suggestion):
    """A finding of ``referee critique`` (mutation testing), tagged with its source;
    the facts grading checks itself carry no ``source``, as skill-creator writes them."""

    source: Literal["critique"]


class EvalFeedback(_Model):
    suggestions: list[Suggestion | CritiqueSuggestion]
    overall: str


class GateExclusion(_Model):
    assertion: str
    reason: str


class Gate(_Model):
    """The release decision: which assertions count, and how many of them passed."""

    counted: list[str]
    excluded: list[GateExclusion]
    passed: int
    total: int
    pass_rate: float


class RunInfo(_Model):
    """The run, named by its place in the workspace (never an absolute path).
    ``files_digest`` digests the run's files as the grade read them
    (``engine.report.freshness``): a report tells a grade older than its run by it.
    ``inputs``: each input file the eval's rules read (``input "x"``), as listed, and
    the digest of its text; None in a grading.json that does not record them."""

    path: str
    eval_id: str
    eval_name: str | None
    configuration: str
    run_number: int
    rules_eval: str
    files_digest: str | None = None
    inputs: dict[str, str] | None = None


class LlmUsage(_Model):
    model: str
    backend: str
    endpoint: str | None = None  # the server that answered, without user, password or query
    requests: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    duration_seconds: float
    replayed: bool


class GraderInfo(_Model):
    """Marks a file as written by referee: only such a file is overwritten freely."""

    name: Literal["referee"] = GRADER_NAME
    version: str
    llm: LlmUsage | None = None


class GradingReport(_Model):
    """grading.json, one per run directory."""

    expectations: list[Expectation]
    summary: Summary
    execution_metrics: dict[str, Any]
    execution_metrics_source: Literal["metrics.json", "transcript"]
    timing: dict[str, Any]
    claims: list[Claim]
    user_notes_summary: UserNotesSummary
    eval_feedback: EvalFeedback
    skill_type: Literal["mcp_based", "code_execution", "text_generation"] | None  # None: cannot be told
    gate: Gate
    run: RunInfo
    problems: list[str] = Field(default_factory=list)
    grader: GraderInfo


class GroundTruthCheck(_Model):
    assertion: str
    method: Literal["ground_truth"]
    passed: bool
    evidence: str
    key: str
    outcome: Outcome


class GroundTruth(_Model):
    """ground_truth.json: the deterministic checks alone."""

    checks: list[GroundTruthCheck]
    grader: GraderInfo
