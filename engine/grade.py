"""Grade every run of a workspace: verdicts, reports, then files.

Three phases, so that the output never depends on how the work was split:

1. Each run is evaluated and its grading document built, in this process or in
   worker processes (``engine.pool``); what comes back is one opaque record of
   the run (``run_report.RunReport.record``: its report as data, its eval's
   feedback still pending) and the few facts its eval's critique needs, never
   the Run. (With an LLM grader the judge runs here, between evaluating and
   building the document.)
2. Here, in order, as each run comes back: its record goes into a ``Spill`` (a
   temporary file), and its critique facts are folded into its eval's tally;
   once every run is in, each eval's feedback is made once. A run is then its
   place, its ticket and its eval's key (``Stored``): memory does not grow with
   the reports.
3. The caller prints and writes: ``Stored.report()`` gives the run as data,
   ``Stored.files`` its two files, made when the writer asks for them.

What nothing shows is not made: a grade that writes nothing (``referee grade
--check``, sources graded in memory) finds no claims, takes no digest of the run's
files and makes no execution metrics, timing or skill type (only a written
grading.json records them), and no file is rendered but for the writer.
"""

from __future__ import annotations

import os
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Generator, Mapping, Sequence, TypedDict, TypeVar

from referee.dsl.frozen import frozen
from referee.engine import __version__
from referee.engine.budget import wall_net
from referee.engine.facts import metrics
from referee.engine.facts.contents import Contents, run_contents
from referee.engine.facts.feedback import EvalTally, RunFacts as FeedbackFacts, eval_feedback
from referee.engine.judging import GraderUsage, Judge, JudgeResult, judged as after_rule_part, not_shown, semantic_item
from referee.engine.pool import ignore_ctrl_c, in_order
from referee.engine.report import carry
from referee.engine.report.build import Carried, RunFacts, grading_document
from referee.engine.report.freshness import files_digest
from referee.engine.report.marker import GRADER_NAME
from referee.engine.report.run_report import RunReport
from referee.engine.report.spill import InMemory, Spill
from referee.engine.report.stored import GradedRun, Stored, places
from referee.engine.run.workspace import Run, report_path, sort_problems
from referee.engine.verdict import Outcome, Precision, Verdict

if TYPE_CHECKING:  # compiled where the rules are, in RulesSource.compile
    from referee.engine.compile import CompiledAssertion, CompiledEval, Program

Progress = Callable[[int, int], None]
T = TypeVar("T")


@frozen
class RulesSource:
    """What a worker process needs to rebuild the Program: texts, not objects."""

    files: tuple[tuple[str, str], ...]  # (display path, text)
    evals_path: str | None = None
    evals_shown: str | None = None  # the evals file's name in rules_location (default: as given)
    sentences: tuple = ()  # without evals.json: the evals' eval_metadata.json sentences (engine.run.metadata_evals)

    def compile(self) -> Program:
        """Parse and compile; raises ``dsl.errors.RulesError`` with every diagnostic: each
        file's syntax errors with the compiler's of what did parse, as ``referee check``."""
        from referee.dsl.errors import RulesError, unique
        from referee.dsl.parser import parse_rules_partial
        from referee.engine.checks.inputs import known_inputs
        from referee.engine.compile import check_rules, compile_rules

        parsed = [parse_rules_partial(text, path) for path, text in self.files]
        trees = [tree for tree, _ in parsed]
        found = [d for _, problems in parsed for d in problems]
        evals = None
        if self.evals_path is not None:
            from referee.dsl.evals_json import load_evals_partial

            evals, problems = load_evals_partial(Path(self.evals_path), self.evals_shown)
            found += problems
        elif self.sentences:
            from referee.engine.run.metadata_evals import evals_file

            evals = evals_file(self.sentences, trees)
        if found:
            unread = evals is None and self.evals_path is not None
            raise RulesError(unique(found + known_inputs(check_rules(trees, evals), unread)))
        return replace(compile_rules(trees, evals), source=self)


@frozen
class Evaluated:
    """A run's verdicts and facts: picklable, free of absolute paths."""

    eval_key: str
    verdicts: tuple[Verdict, ...]
    facts: RunFacts
    contents: Contents | None = None  # the names the run holds, for the critique


@frozen
class Graded:
    """Phase 1's result for one run: its record, and the facts its eval's critique needs."""

    eval_key: str
    critique: FeedbackFacts
    record: bytes  # RunReport.record(), without the eval's feedback


def evaluate_run(program: Program, run: Run, writes: bool = True) -> Evaluated | None:
    """Verdicts and facts for one run; None when no eval of the rules applies.
    Within the wall-clock safety net (``budget.wall_net``): past it the grade stops.
    Without ``writes`` (the grade writes no report) the facts hold no claims, no
    files digest, no metrics, timing or skill type (None): nothing will show them."""
    from referee.engine.evaluate import evaluate

    compiled = program.for_run(run.id, run.metadata)
    if compiled is None:
        return None
    # before the verdicts: a file changed meanwhile makes the written grade stale
    digest = files_digest(run) if writes else None
    with wall_net(f"run {report_path(run.id)}"):
        verdicts = tuple(evaluate(compiled, run))
        facts = run_facts(run, compiled.key, digest, writes, compiled.inputs)
        return Evaluated(compiled.key, verdicts, facts, run_contents(run))


def run_facts(run: Run, eval_key: str, digest: str | None = None, writes: bool = True,
              inputs: Sequence[tuple[str, str]] = ()) -> RunFacts:
    """Everything the report copies from the run, besides the verdicts; ``digest`` is
    the run's ``files_digest``, taken before its verdicts. Without ``writes``, no claims,
    metrics, timing or skill type (None: only the report shows them), but the files the
    metrics read are read all the same, for the warnings those raise.
    ``inputs`` are the input files the eval's rules read, with their digests
    (``CompiledEval.inputs``): the rules files' digests are in each ``rules_location``,
    and a change of an input file is as much a change of what graded the run."""
    if writes:
        found_metrics, source = metrics.execution_metrics(run)
    else:  # no metrics to show, but the warnings their files raise
        metrics.read_for_metrics(run)
        found_metrics, source = None, None
    notes = run.user_notes
    transcript = run.transcript
    every_call = run.every_call  # the calls the rules see, the subagents' too
    tools = tuple(call.tool for call in every_call.calls if call.tool)
    info = {"path": report_path(run.id), "eval_id": run.id.eval_id, "eval_name": run.id.eval_name,
            "configuration": run.id.configuration, "run_number": run.id.run_number, "rules_eval": eval_key,
            "files_digest": digest, "inputs": dict(inputs)}
    side = [*metrics.metrics_problems(run), *metrics.timing_problems(run)]
    problems = sort_problems([*run.problems, *side]) if side else run.problems  # already sorted alone
    return RunFacts(
        info=info, metrics=found_metrics, metrics_source=source,
        timing=metrics.copied_timing(run) if writes else None, claims=_claims(run) if writes else None,
        notes=(notes.uncertainties, notes.needs_review, notes.workarounds),
        skill_type=metrics.known_skill_type(run) if writes else None, tools=tools,
        problems=tuple(str(problem) for problem in problems), source_map=run.source_map[0],
        tools_certain=(transcript.unreadable is None and not transcript.suspect_calls and run.no_record is None
                       and every_call.unknown is None),
    )


def _claims(run: Run) -> tuple:
    from referee.engine.facts.claims import find_claims  # here: a grade that writes nothing never loads it

    return tuple(find_claims(run))


def graded(assertions: Sequence[CompiledAssertion], result: Evaluated, grader: dict,
           judged: frozenset[str] = frozenset(), grader_seconds: float | None = None,
           carried: Carried | None = None) -> Graded:
    """One run's record and the facts its eval's critique needs."""
    document = grading_document(assertions, result.verdicts, result.facts, None, grader, judged,
                                grader_seconds, carried)
    critique = FeedbackFacts(
        path=result.facts.info["path"], configuration=result.facts.info["configuration"],
        tools=result.facts.tools,
        # The verdicts' own outcomes, as the critique always saw them (before the
        # report's trust rule turns a notes-only pass into a fail).
        outcomes=tuple(v.outcome.value for v in result.verdicts),
        vacuous=tuple(v.vacuous for v in result.verdicts), contents=result.contents,
        tools_certain=result.facts.tools_certain)
    return Graded(result.eval_key, critique, RunReport(document).record())


def grade_run(program: Program, grader: dict, run: Run, writes: bool = True) -> Graded | None:
    """Phase 1 for one run without an LLM grader."""
    try:
        result = evaluate_run(program, run, writes)
        if result is None:
            return None
        assertions = eval_of(program, result.eval_key).assertions
        kept, dropped = carry.earlier_verdicts(run, assertions, result.verdicts)  # see README, LLM grader
        return graded(assertions, result, grader, carried=Carried(kept, dropped))
    finally:
        run.release()  # everything the report needs is in it now


# ---- phase 1, serially or in processes ------------------------------------------------

class _WorkerState(TypedDict, total=False):
    program: Program
    grader: dict
    writes: bool
    inherited: tuple[RulesSource, Program]  # the main process's, seen by a forked worker


_WORKER: _WorkerState = {}


def _start_worker(source: RulesSource, grader: dict, writes: bool = True) -> None:
    # Ctrl-C reaches every process of the terminal's group; the main process alone
    # answers it (it stops the workers), so no worker prints a traceback of its own.
    ignore_ctrl_c()  # and SIGTERM ends it, whatever the main process set for it
    # A forked worker finds the main process's Program for these very texts already
    # in its memory; any other kind of start compiles the texts again.
    inherited = _WORKER.pop("inherited", None)
    if inherited is not None and inherited[0] == source:
        _WORKER["program"] = inherited[1]
    else:
        _WORKER["program"] = source.compile()
    _WORKER["grader"] = grader
    _WORKER["writes"] = writes


def _evaluate_in_worker(run: Run) -> Evaluated | None:
    return evaluate_run(_WORKER["program"], run, _WORKER["writes"])


def _grade_in_worker(run: Run) -> Graded | None:
    return grade_run(_WORKER["program"], _WORKER["grader"], run, _WORKER["writes"])


def _each(task: Callable[[Run], T], local: Callable[[Run], T], runs: Sequence[Run], program: Program,
          source: RulesSource, grader: dict, jobs: int, progress: Progress | None,
          writes: bool = True) -> Generator[T, None, None]:
    """``local(run)`` for every run here, or ``task(run)`` in ``jobs`` worker processes
    that take the Program from the rule texts, never by pickling it (compiled regexes
    and paths); results in the order of ``runs``."""
    if jobs > 1:
        _WORKER["inherited"] = (source, program)
    try:
        yield from in_order(task, local, runs, jobs, progress, _start_worker, (source, grader, writes))
    finally:
        _WORKER.pop("inherited", None)  # a later grade's workers must not find this one's


def _evaluated(program: Program, runs: Sequence[Run], source: RulesSource, jobs: int,
               progress: Progress | None, writes: bool = True) -> Generator[Evaluated | None, None, None]:
    return _each(_evaluate_in_worker, lambda run: evaluate_run(program, run, writes), runs, program, source,
                 grader_info(), jobs, progress, writes)


def grade_all(program: Program, runs: Sequence[Run], source: RulesSource, grader: dict, jobs: int = 1,
              progress: Progress | None = None, judge: Judge | None = None,
              extra_feedback: Mapping[str, Sequence[dict]] | None = None) -> list[GradedRun | None]:
    """Grade every run: one entry per run, in order, None where no eval applies; every
    report in memory (``grade_spilled`` keeps them on disk instead)."""
    runs = list(runs)
    stored = grade_spilled(program, list(runs), source, grader, InMemory(), jobs, progress, judge, extra_feedback)
    return [None if s is None else GradedRun(run, s.report()) for run, s in zip(runs, stored)]


def grade_spilled(program: Program, runs: Sequence[Run], source: RulesSource, grader: dict,
                  spill: Spill | InMemory, jobs: int = 1, progress: Progress | None = None,
                  judge: Judge | None = None,
                  extra_feedback: Mapping[str, Sequence[dict]] | None = None,
                  writes: bool = True, tallies: dict[str, EvalTally] | None = None) -> list[Stored | None]:
    """Grade every run: one entry per run, in order, None where no eval applies. Each
    run's record goes into ``spill`` as it comes back; only its place and its ticket
    stay here, and what its eval's critique needs is folded into a tally.
    Memory does not grow with discovery's objects either: a ``RunList`` (what
    discovery gives) builds each Run only as it is graded, and given a list, each
    graded run's entry in it is set to None once the run is in.
    ``extra_feedback`` adds suggestions to an eval's eval_feedback (``referee
    critique``'s findings, by eval key). Without ``writes`` no run's claims are found
    and no files digest taken, and its report cannot be written: for a grade that
    writes nothing.
    ``tallies``, when given, receives each eval's critique facts (a shard's
    manifest keeps them for the merge).

    Without a judge, workers evaluate and build the records. With one, workers
    evaluate and the judge (which holds connections, a cassette and a concurrency
    limit) runs here before each run's record is made: its network time dwarfs that.
    """
    stored: list[Stored | None] = []
    # Each eval's critique needs all its runs: what it needs of them is folded in
    # as they come (a few names and counts per eval), and made at the end.
    tallies = {} if tallies is None else tallies
    feedbacks: dict[str, dict] = {}
    with closing(_graded(program, runs, source, grader, jobs, progress, judge, writes)) as results:
        for number, (place, result) in enumerate(zip(places(runs), results)):
            if result is None:
                stored.append(None)
                continue
            compiled = eval_of(program, result.eval_key)
            key = compiled.key  # the Program's string, not a copy per run
            if key not in tallies:
                tallies[key] = EvalTally(len(compiled.assertions))
            tallies[key].add(result.critique)
            stored.append(Stored(place, key, spill.put(result.record), spill, feedbacks))
            if isinstance(runs, list):
                runs[number] = None  # graded: let it go (see above)
    extra = extra_feedback or {}
    for key, tally in tallies.items():
        compiled = eval_of(program, key)
        feedbacks[key] = eval_feedback(compiled.assertions, tally, extra.get(key, ()), compiled.let_nodes)
    return stored


def _graded(program: Program, runs: Sequence[Run], source: RulesSource, grader: dict, jobs: int,
            progress: Progress | None, judge: Judge | None,
            writes: bool) -> Generator[Graded | None, None, None]:
    """Phase 1, run by run in order (None: no eval applies)."""
    if judge is None:
        with closing(_each(_grade_in_worker, lambda run: grade_run(program, grader, run, writes), runs,
                           program, source, grader, jobs, progress, writes)) as results:
            yield from results
        return
    with closing(_evaluated(program, runs, source, jobs, progress, writes)) as evaluated:
        for run, result in zip(runs, evaluated):
            try:
                done = None if result is None else _judge_and_grade(program, judge, grader, run, result)
            finally:
                run.release()  # the judge has read what it needed; the report holds the rest
            yield done


def _judge_and_grade(program: Program, judge: Judge, grader: dict, run: Run, result: Evaluated) -> Graded:
    assertions = eval_of(program, result.eval_key).assertions
    verdicts, judged, usage = judge_run(judge, run, assertions, result.verdicts)
    info = grader if usage is None else {**grader, "llm": _usage(usage)}
    seconds = usage.duration_seconds if usage is not None else None
    decided = frozenset(a.key for a, v in zip(assertions, verdicts)
                        if a.key in judged and v.outcome in (Outcome.PASS, Outcome.FAIL))
    carried = Carried(inputs=carry.grader_inputs(run, assertions, decided, judged, carry.grader_identity(info),
                                                 result.verdicts))
    return graded(assertions, Evaluated(result.eval_key, verdicts, result.facts, result.contents), info, judged,
                  seconds, carried)


def judge_run(judge: Judge | None, run: Run, assertions: Sequence[CompiledAssertion],
              verdicts: tuple[Verdict, ...]) -> tuple[tuple[Verdict, ...], frozenset[str], GraderUsage | None]:
    """Hand the run's ungraded semantic assertions to the judge; merge its verdicts."""
    items = [semantic_item(a) for a, v in zip(assertions, verdicts)
             if _is_semantic(a) and v.outcome is Outcome.NOT_GRADED]
    if judge is None or not items:
        return verdicts, frozenset(), None
    unread = not_shown(run)
    result = judge.grade(run, items) if unread is None else JudgeResult(
        {item.key: Verdict(Outcome.ERROR, f"not graded: {unread}") for item in items})
    asked = {item.key for item in items}
    merged = []
    for assertion, verdict in zip(assertions, verdicts):
        if assertion.key not in asked:
            merged.append(verdict)
            continue
        judged = result.verdicts.get(assertion.key)
        merged.append(after_rule_part(verdict, judged) if judged is not None else
                      Verdict(Outcome.ERROR, "the LLM grader returned no verdict for this assertion"))
    return tuple(merged), frozenset(asked), None if unread is not None else result.usage


def eval_of(program: Program, key: str) -> CompiledEval:
    """The compiled eval named ``key`` (programs hold a handful: a scan is enough)."""
    return next(compiled for compiled in program.evals if compiled.key == key)


def _usage(usage: GraderUsage) -> dict[str, Any]:
    """grading.json's ``grader.llm`` block (``LlmUsage``'s fields, in its order)."""
    return {"model": usage.model, "backend": usage.backend, "endpoint": usage.endpoint, "requests": usage.requests,
            "input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens,
            "cost_usd": usage.cost_usd, "duration_seconds": round(usage.duration_seconds, 3),
            "replayed": usage.replayed}


def _is_semantic(assertion: CompiledAssertion) -> bool:
    return assertion.precision == Precision.SEMANTIC


def grader_info() -> dict[str, Any]:
    """The marker written into every report (``GraderInfo``): this program and its version."""
    return {"name": GRADER_NAME, "version": __version__, "llm": None}


def cpu_jobs() -> int:
    """A sensible default for ``--jobs 0``: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)
