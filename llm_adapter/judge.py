"""``LLMJudge``: the ``engine.judging.Judge`` that asks a model about semantic assertions.

By default a run's semantic assertions go to the model in one request: the run's
record is most of every prompt, so sending it once per assertion multiplies the
cost by the number of assertions for no gain in what the model can see (measured in
docs/llm.md). ``batch=False`` sends one request per assertion, for models that do
worse with several questions at once.

Nothing here raises for a bad reply or a failed request: the assertions concerned
get ``error`` verdicts that say what happened. Only ``KeyboardInterrupt`` and
cancellation escape, so Ctrl-C stops grading instead of being graded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from referee.engine.judging import GraderClaim, GraderUsage, JudgeResult, SemanticItem
from referee.engine.text import surrogates_escaped
from referee.engine.verdict import Outcome, Verdict
from referee.llm_adapter import prompt, verify
from referee.llm_adapter.backends import Backend, Completion
from referee.llm_adapter.cassette import CassetteMiss
from referee.llm_adapter.evidence import RunEvidence, collect
from referee.llm_adapter.redact import Redactor
from referee.llm_adapter.reply import Malformed, Reply, parse
from referee.llm_adapter.transport import Cancelled, TransportError

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

ATTEMPTS = 2  # the first request and one retry after a malformed reply


@dataclass
class _Tally:
    """What the requests for one run cost, summed."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    replayed: bool = True

    def add(self, completion: Completion) -> None:
        self.requests += 1
        self.input_tokens += completion.input_tokens
        self.output_tokens += completion.output_tokens
        self.seconds += completion.seconds
        self.replayed = self.replayed and completion.replayed


@dataclass
class _Outcome:
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    claims: list[GraderClaim] = field(default_factory=list)
    feedback: list[str] = field(default_factory=list)


@dataclass
class LLMJudge:
    """Grades semantic assertions with ``backend``. Thread-safe: the backend's
    transport limits how many requests run at once."""

    backend: Backend
    batch: bool = True
    price_per_million: tuple[float, float] | None = None  # (input, output) in USD
    redactor: Redactor = field(default_factory=Redactor)

    def grade(self, run: Run, items: Sequence[SemanticItem]) -> JudgeResult:
        """Judge ``items`` against ``run``; every item's key gets a verdict.

        Everything in the result is passed through the redactor: the API key never
        reaches grading.json or the terminal, even when the server or the run echoes it.
        """
        if not items:
            return JudgeResult({}, usage=self._usage(_Tally()))
        evidence = collect(run)
        tally = _Tally()
        result = _Outcome()
        groups = [list(items)] if self.batch else [[item] for item in items]
        for group in groups:
            self._grade_group(evidence, group, tally, result, _run_name(run))
        return self.redactor.result(JudgeResult(
            result.verdicts, tuple(result.claims), tuple(result.feedback), self._usage(tally)))

    def cancel(self) -> None:
        """Stop pending retries; called by the command line on Ctrl-C."""
        self.backend.cancel()

    def _grade_group(self, evidence: RunEvidence, group: list[SemanticItem], tally: _Tally,
                     result: _Outcome, run_name: str) -> None:
        try:
            self._judge_group(evidence, group, tally, result, run_name)
        except Cancelled:
            raise
        except CassetteMiss as exc:
            self._fail_all(result, group, f"{exc}; re-record with record:PATH", run_name)
        except (TransportError, Malformed) as exc:
            self._fail_all(result, group, str(exc), run_name)
        except Exception as exc:  # noqa: BLE001 - a defect must neither pass nor crash the grade
            self._fail_all(result, group, f"internal error in the LLM grader "
                           f"({type(exc).__name__}: {exc}); please report it", run_name)

    def _judge_group(self, evidence: RunEvidence, group: list[SemanticItem], tally: _Tally,
                     result: _Outcome, run_name: str) -> None:
        rendered = prompt.render(evidence, group)
        about = f"{run_name}: " + " | ".join(surrogates_escaped(item.text) for item in group)  # a cassette is UTF-8
        reply = self._ask(rendered, tally, about)
        verdicts = {item.key: verify.on_part(verify.judge_item(
                        next(a for a in reply.assertions if a.id == ident), evidence), item, evidence)
                    for ident, item in zip(rendered.ids, group)}
        claims = verify.claims(reply, evidence)
        feedback = verify.feedback(reply, rendered.ids, group)
        result.verdicts.update(verdicts)  # all or nothing: a failure above leaves no half
        result.claims.extend(claims)
        result.feedback.extend(feedback)

    def _ask(self, rendered: prompt.Rendered, tally: _Tally, about: str) -> Reply:
        """Ask, and once more with the reason if the reply is malformed."""
        current, refused = rendered, ""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                completion = self.backend.complete(current.request, about=about)
            except CassetteMiss as exc:
                if not refused:
                    raise
                # A replayed reply that was refused is what went wrong, not a missing
                # entry: the cassette holds a reply for this request, and it is said why
                # it was not used (an edited reply, or one to other assertions).
                raise CassetteMiss(f"the recorded reply is unusable ({refused}), and {exc} "
                                   "for the request that asks again") from None
            tally.add(completion)
            try:
                return parse(completion.text, current.ids)
            except Malformed as exc:
                if attempt == ATTEMPTS:
                    raise Malformed(
                        f"grader reply unusable after {ATTEMPTS} attempts: {exc}") from None
                refused = str(exc)
                current = prompt.retry(rendered, completion.text, str(exc))
        raise Malformed("grader gave no reply")

    @staticmethod
    def _fail_all(result: _Outcome, group: list[SemanticItem], why: str, run_name: str) -> None:
        for item in group:
            result.verdicts[item.key] = Verdict(
                Outcome.ERROR, f"not graded: {why} (assertion \"{item.text}\", run {run_name})")

    def _usage(self, tally: _Tally) -> GraderUsage:
        cost = None
        if self.price_per_million is not None and tally.requests and not tally.replayed:
            per_in, per_out = self.price_per_million
            cost = round((tally.input_tokens * per_in + tally.output_tokens * per_out) / 1e6, 6)
        replayed = bool(tally.requests) and tally.replayed
        # Two servers may serve one model name: the report says which one answered. A
        # backend of a test or a replay asks none (``endpoint`` absent or None).
        asked = getattr(self.backend, "endpoint", None) if tally.requests and not replayed else None
        return GraderUsage(model=self.backend.model, backend=self.backend.name, endpoint=asked,
                           requests=tally.requests, input_tokens=tally.input_tokens,
                           output_tokens=tally.output_tokens, cost_usd=cost,
                           duration_seconds=round(tally.seconds, 3),
                           replayed=replayed)


def _run_name(run: Run) -> str:
    """The run's folder, as text: a byte of its name that is not UTF-8 escaped
    (``engine.text.surrogates_escaped``), since it goes into a cassette's ``about``, which is UTF-8."""
    run_id = getattr(run, "id", None)
    return surrogates_escaped(str(getattr(run_id, "rel", None) or "?"))
