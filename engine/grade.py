"""Grade every run of a workspace: verdicts, then reports, then files.

Three phases, so that the output never depends on how the work was split:

1. Each run is evaluated on its own (in this process or in worker processes);
   the result is plain data (verdicts and facts), gathered in discovery order.
2. Here, in order: the LLM grader (if any) judges the semantic items, the eval
   critique is computed across each eval's runs, and the reports are assembled.
3. The reports are written (or not, with ``check``), never over a file that
   referee did not write unless ``force`` keeps that file aside first.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from engine import claims, metrics
from engine.feedback import RunFacts as FeedbackFacts, eval_feedback
from engine.judging import GraderUsage, SemanticItem
from engine.report.build import RunFacts, grading_report, ground_truth
from engine.report.jsonable import plain
from engine.report.models import GraderInfo, GradingReport, GroundTruth, LlmUsage, RunInfo
from engine.verdict import Outcome, Verdict

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RulesSource:
    """What a worker process needs to rebuild the Program: texts, not objects."""

    files: tuple[tuple[str, str], ...]  # (display path, text)
    evals_path: str | None = None
    regex_timeout: float = 1.0

    def compile(self) -> Any:
        """Parse and compile; raises ``dsl.errors.RulesError`` with every diagnostic."""
        import dsl
        from engine.compile import compile_rules

        trees = [dsl.parse_rules(text, path) for path, text in self.files]
        evals = None
        if self.evals_path is not None:
            from dsl.evals_json import load_evals

            evals = load_evals(Path(self.evals_path))
        return compile_rules(trees, evals, regex_timeout=self.regex_timeout)


@dataclass(frozen=True)
class Evaluated:
    """Phase 1's result for one run: picklable, free of absolute paths."""

    eval_key: str
    verdicts: tuple[Verdict, ...]
    facts: RunFacts


@dataclass
class GradedRun:
    """One run, fully graded. ``run`` keeps the directory to write into."""

    run: Any
    report: GradingReport
    truth: GroundTruth


def evaluate_run(program: Any, run: Any) -> Evaluated | None:
    """Verdicts and facts for one run; None when no eval of the rules applies."""
    from engine.evaluate import evaluate

    compiled = program.for_run(run.id, run.metadata)
    if compiled is None:
        return None
    verdicts = tuple(evaluate(compiled, run))
    return Evaluated(compiled.key, verdicts, run_facts(run, compiled.key))


def run_facts(run: Any, eval_key: str) -> RunFacts:
    """Everything the report copies from the run, besides the verdicts."""
    found_metrics, source = metrics.execution_metrics(run)
    notes = run.user_notes
    tools = tuple(call.tool for call in run.transcript.calls if call.tool)
    timing_file = run.timing
    timing = plain(timing_file.value) if timing_file is not None and isinstance(timing_file.value, dict) else {}
    found_claims = tuple(claims.find_claims(run))
    info = RunInfo(path=run.id.rel, eval_id=run.id.eval_id, eval_name=run.id.eval_name,
                   configuration=run.id.configuration, run_number=run.id.run_number, rules_eval=eval_key)
    return RunFacts(
        info=info, metrics=found_metrics, metrics_source=source, timing=timing, claims=found_claims,
        notes=(notes.uncertainties, notes.needs_review, notes.workarounds),
        skill_type=metrics.skill_type(tools), tools=tools,
        problems=tuple(str(problem) for problem in run.problems),
    )


# ---- phase 1: evaluate, serially or in processes --------------------------------------

_WORKER_PROGRAM: Any = None


def _start_worker(source: RulesSource) -> None:
    global _WORKER_PROGRAM
    _WORKER_PROGRAM = source.compile()


def _evaluate_in_worker(run: Any) -> Evaluated | None:
    return evaluate_run(_WORKER_PROGRAM, run)


def evaluate_all(program: Any, runs: Sequence[Any], source: RulesSource, jobs: int = 1,
                 progress: Progress | None = None) -> list[Evaluated | None]:
    """Phase 1 for every run, results in the order of ``runs``.

    Workers rebuild the Program from the rule texts once each (cheaper and safer
    than pickling compiled regexes and paths); runs travel to them in chunks.
    """
    if jobs <= 1 or len(runs) < 2:
        results = []
        for number, run in enumerate(runs, 1):
            results.append(evaluate_run(program, run))
            if progress:
                progress(number, len(runs))
        return results
    chunk = max(1, min(64, len(runs) // (jobs * 8)))
    results = []
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(source,)) as pool:
        for number, result in enumerate(pool.map(_evaluate_in_worker, runs, chunksize=chunk), 1):
            results.append(result)
            if progress:
                progress(number, len(runs))
    return results


# ---- phase 2: judge, critique, assemble -----------------------------------------------


def judge_run(judge: Any, run: Any, assertions: Sequence[Any],
              verdicts: tuple[Verdict, ...]) -> tuple[tuple[Verdict, ...], frozenset[str], GraderUsage | None]:
    """Hand the run's ungraded semantic assertions to the judge; merge its verdicts."""
    items = [SemanticItem(a.key, a.text, a.semantic_rubric or a.text)
             for a, v in zip(assertions, verdicts)
             if _is_semantic(a) and v.outcome is Outcome.NOT_GRADED]
    if judge is None or not items:
        return verdicts, frozenset(), None
    result = judge.grade(run, items)
    merged = []
    for assertion, verdict in zip(assertions, verdicts):
        judged = result.verdicts.get(assertion.key) if any(i.key == assertion.key for i in items) else None
        if judged is None and any(i.key == assertion.key for i in items):
            judged = Verdict(Outcome.ERROR, "the LLM grader returned no verdict for this assertion")
        merged.append(judged if judged is not None else verdict)
    return tuple(merged), frozenset(item.key for item in items), result.usage


def assemble(program: Any, runs: Sequence[Any], evaluated: Sequence[Evaluated | None],
             grader: GraderInfo, judge: Any = None) -> list[GradedRun]:
    """Phase 2: reports for every evaluated run, in the order given."""
    evals = {compiled.key: compiled for compiled in program.evals}
    judged_runs = []
    for run, result in zip(runs, evaluated):
        if result is None:
            continue
        assertions = evals[result.eval_key].assertions
        verdicts, keys, usage = judge_run(judge, run, assertions, result.verdicts)
        judged_runs.append((run, replace(result, verdicts=verdicts), keys, usage))
    feedback = _feedback_by_eval(evals, judged_runs)
    graded = []
    for run, result, keys, usage in judged_runs:
        info = grader if usage is None else grader.model_copy(update={"llm": _usage(usage)})
        seconds = usage.duration_seconds if usage is not None else None
        report = grading_report(evals[result.eval_key].assertions, result.verdicts, result.facts,
                                feedback[result.eval_key], info, keys, seconds)
        graded.append(GradedRun(run, report, ground_truth(report)))
    return graded


def _feedback_by_eval(evals: dict[str, Any], judged_runs: Iterable[tuple]) -> dict[str, dict]:
    facts: dict[str, list[FeedbackFacts]] = {}
    for _, result, _, _ in judged_runs:
        facts.setdefault(result.eval_key, []).append(FeedbackFacts(
            path=result.facts.info.path, configuration=result.facts.info.configuration,
            tools=result.facts.tools,
            outcomes=tuple(v.outcome.value for v in result.verdicts),
            vacuous=tuple(v.vacuous for v in result.verdicts)))
    return {key: eval_feedback(evals[key].assertions, runs, let_sources(evals[key]))
            for key, runs in facts.items()}


def let_sources(compiled: Any) -> dict[str, str]:
    """``let`` name -> source text, for tracing a check to the calls its lets select."""
    lets = getattr(compiled, "lets", None) or {}
    items = lets.items() if isinstance(lets, dict) else ((getattr(x, "name", ""), x) for x in lets)
    found = {}
    for name, value in items:
        text = getattr(value, "source", None) or getattr(value, "source_text", None) or str(value)
        found[str(name)] = text
    return found


def _usage(usage: GraderUsage) -> LlmUsage:
    return LlmUsage(model=usage.model, backend=usage.backend, requests=usage.requests,
                    input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
                    cost_usd=usage.cost_usd, duration_seconds=round(usage.duration_seconds, 3),
                    replayed=usage.replayed)


def _is_semantic(assertion: Any) -> bool:
    return getattr(assertion.precision, "value", assertion.precision) == "semantic"


def grader_info() -> GraderInfo:
    """The marker written into every report: this program and its version."""
    try:
        from importlib.metadata import version

        found = version("referee")
    except Exception:  # not installed (a source checkout): still a stable marker
        found = "0+source"
    return GraderInfo(version=found)


def cpu_jobs() -> int:
    """A sensible default for ``--jobs 0``: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)
