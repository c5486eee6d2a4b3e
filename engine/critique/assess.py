"""Grade an assertion on the mutants of every run where it passes.

An assertion is weak when a mutant that breaks what it claims (``must_fail``)
still passes, or when it passed only because there was nothing to examine.
Runs are rewritten in memory once (the identity mutant); an assertion whose
verdict changes under that rewrite alone is not judged on that run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.dsl.frozen import frozen
from referee.engine.budget import spend
from referee.engine.checks.base import Context
from referee.engine.checks.static import presence_only
from referee.engine.compile import CompiledAssertion, CompiledEval
from referee.engine.critique.image import RunImage, image_of, to_run
from referee.engine.critique.claims import claims_of
from referee.engine.critique.mutants import Mutant, Shape, mutants_for
from referee.engine.evaluate import evaluate, evaluate_assertion
from referee.engine.verdict import Outcome, Precision, Verdict

if TYPE_CHECKING:
    from referee.engine.run.memory import MemoryRun
    from referee.engine.run.workspace import Run

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@frozen
class Tried:
    """One mutant graded: did the assertion still pass?"""

    run: str
    mutant: str
    must_fail: bool
    passed: bool
    reason: str


@dataclass
class Critique:
    """Everything learnt about one assertion over the runs where it passed."""

    eval_key: str
    key: str
    text: str
    precision: str
    passing_runs: list[str] = field(default_factory=list)
    tried: list[Tried] = field(default_factory=list)
    vacuous_runs: list[str] = field(default_factory=list)
    not_judged: list[str] = field(default_factory=list)

    @property
    def survivors(self) -> list[Tried]:
        return [t for t in self.tried if t.must_fail and t.passed]

    @property
    def also_passes(self) -> list[str]:
        """Mutants that did not have to fail and did not: worth knowing, not a weakness."""
        return list(dict.fromkeys(t.reason for t in self.tried if not t.must_fail and t.passed))

    @property
    def weak(self) -> bool:
        return bool(self.survivors or self.vacuous_runs)

    def reasons(self) -> list[str]:
        found = []
        if self.vacuous_runs:
            found.append("passes only because there was nothing to examine "
                         f"({len(self.vacuous_runs)} run{'s' if len(self.vacuous_runs) != 1 else ''})")
        for tried in self.survivors:
            if tried.reason not in found:
                found.append(tried.reason)
        return found


def critique_run(ev: CompiledEval, run: Run, lets_text: Mapping[str, str],
                 found: dict[str, Critique]) -> list[Verdict]:
    """Add what the mutants of ``run`` show about each assertion of ``ev`` to ``found``;
    return the verdicts of ``run`` itself, one per assertion of ``ev``."""
    verdicts = evaluate(ev, run)
    passing = [(a, v) for a, v in zip(ev.assertions, verdicts)
               if a.check is not None and v.outcome is Outcome.PASS]
    for assertion in ev.assertions:
        if assertion.check is not None:
            _entry(found, ev, assertion)
    if not passing:
        return verdicts
    image = image_of(run)
    spend(work_units(image), "grading mutants")  # the critique's budget (critique.runner)
    identity = to_run(image, run)
    lets = {let.name: let for let in ev.let_nodes}
    for assertion, verdict in passing:
        critique = found[assertion.key]
        critique.passing_runs.append(run.id.rel)
        if verdict.vacuous:
            critique.vacuous_runs.append(run.id.rel)
        if _grade(ev, assertion, identity).outcome is not Outcome.PASS:
            critique.not_judged.append(run.id.rel)
            continue
        existence = assertion.precision == Precision.EXISTENCE or (
            assertion.condition is not None and presence_only(assertion.condition))
        shape = Shape.of(_assertion_text(assertion, lets_text), existence, claims_of(assertion.condition, lets))
        mutants = mutants_for(image, verdict, shape)
        # Charged before any is graded: a budget too small stops before the work, not after.
        spend(sum(work_units(m.image) for m in mutants), "grading mutants")
        for mutant in mutants:
            critique.tried.append(_try(ev, assertion, run, mutant, identity))
    return verdicts


def _entry(found: dict[str, Critique], ev: CompiledEval, assertion: CompiledAssertion) -> Critique:
    if assertion.key not in found:
        found[assertion.key] = Critique(ev.key, assertion.key, assertion.text, assertion.precision.value)
    return found[assertion.key]


def _try(ev: CompiledEval, assertion: CompiledAssertion, run: Run, mutant: Mutant, identity: MemoryRun) -> Tried:
    # a mutant that keeps the calls and notes writes the identity's transcript text: parsed once
    verdict = _grade(ev, assertion, to_run(mutant.image, run, parsed_like=identity))
    return Tried(run.id.rel, mutant.name, mutant.must_fail, verdict.outcome is Outcome.PASS, mutant.reason)


def work_units(image: RunImage) -> int:
    """What grading one mutant of ``image`` costs: it is written out and read back
    whole, so one unit per call and per note, and per 1,000 characters of text."""
    text = len(image.response or "") + sum(len(data) for data in image.files.values())
    return 1 + len(image.calls) + len(image.notes) + text // 1000


def _grade(ev: CompiledEval, assertion: CompiledAssertion, run: Run) -> Verdict:
    return evaluate_assertion(assertion, Context(run, dict(ev.lets)))


def _assertion_text(assertion: CompiledAssertion, lets_text: Mapping[str, str]) -> str:
    """The check, followed by the text of every let it names (what it really reads)."""
    source = assertion.check_source or ""
    used = [lets_text[name] for name in dict.fromkeys(_WORD.findall(source)) if name in lets_text]
    return " ".join([source, *used])
