"""Grade every run of a workspace: verdicts, reports, then files.

Three phases, so that the output never depends on how the work was split:

1. Each run is evaluated and its two files rendered on its own, in this process
   or in worker processes: grading.json is rendered with its ``eval_feedback``
   slot empty and kept as two halves of text. Those texts and a short ``Brief``
   go into a ``Spill`` (a temporary file): a forked worker puts them there
   itself and sends back where they lie (``Placed``), any other sends them
   back. With them come the few facts the eval critique needs, never the models.
   (With an LLM grader the judge runs here, between evaluating and rendering.)
2. Here, in order, as each run comes back: its texts' place in the spill is
   kept, and its critique facts are folded in; once every run is in, the
   critique of each eval is rendered once. A run's grading.json is its halves
   joined around that block (``Stored.grading``), a string concatenation, so the
   main process does no per-run rendering, and it holds one run's text at a
   time: memory does not grow with the rendered reports.
3. The files are written (or not, with ``check``), never over a file that
   referee did not write unless ``force`` keeps that file aside first.
"""

from __future__ import annotations

import json
import os
import signal
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterator, Mapping, Sequence, TypeVar

from referee.engine.facts import claims, metrics
from referee.engine import __version__
from referee.engine.budget import wall_net
from referee.engine.facts.contents import Contents, run_contents
from referee.engine.facts.feedback import EvalTally, RunFacts as FeedbackFacts, eval_feedback
from referee.engine.judging import GraderUsage, Judge, SemanticItem, judged as after_rule_part
from referee.engine.report.brief import Brief, brief
from referee.engine.report import carry
from referee.engine.report.build import Carried, RunFacts, grading_document, ground_truth
from referee.engine.report.freshness import files_digest
from referee.engine.text import plain
from referee.engine.report.marker import GRADER_NAME
from referee.engine.run.workspace import Run, RunList, report_path
from referee.engine.report.render import around_member, feedback_text, join_feedback, render, split_at_feedback
from referee.engine.report.spill import InMemory, SharedPart, Spill, Ticket
from referee.engine.report.write import GRADING, GROUND_TRUTH
from referee.engine.pool import in_order
from referee.engine.verdict import Outcome, Precision, Verdict

if TYPE_CHECKING:  # compiled where the rules are, in RulesSource.compile
    from referee.engine.compile import CompiledAssertion, CompiledEval, Program

Progress = Callable[[int, int], None]
T = TypeVar("T")
# A caller's own text about each run, made from its brief and the text of its
# expectations value (``render.member_text``) where the run is rendered (in the
# workers, in parallel) and kept with its reports (``Stored.entry``): ``referee
# grade --json`` makes most of each run's entry so, rather than after grading.
EntryMaker = Callable[[Brief, str], str]


@dataclass(frozen=True)
class RulesSource:
    """What a worker process needs to rebuild the Program: texts, not objects."""

    files: tuple[tuple[str, str], ...]  # (display path, text)
    evals_path: str | None = None
    evals_shown: str | None = None  # the evals file's name in rules_location (default: as given)
    sentences: tuple = ()  # without evals.json: the evals' eval_metadata.json sentences (engine.run.metadata_evals)

    def compile(self) -> Program:
        """Parse and compile; raises ``dsl.errors.RulesError`` with every diagnostic."""
        from referee import dsl
        from referee.engine.compile import compile_rules

        trees = [dsl.parse_rules(text, path) for path, text in self.files]
        evals = None
        if self.evals_path is not None:
            from referee.dsl.evals_json import load_evals

            evals = load_evals(Path(self.evals_path), self.evals_shown)
        elif self.sentences:
            from referee.engine.run.metadata_evals import evals_file

            evals = evals_file(self.sentences, trees)
        return compile_rules(trees, evals)


@dataclass(frozen=True)
class Evaluated:
    """A run's verdicts and facts: picklable, free of absolute paths."""

    eval_key: str
    verdicts: tuple[Verdict, ...]
    facts: RunFacts
    contents: Contents | None = None  # the names the run holds, for the critique


@dataclass(frozen=True)
class Rendered:
    """Phase 1's result for one run: its files as text, grading.json still without
    its eval_feedback (``head`` + block + ``tail``), and the facts the critique needs."""

    eval_key: str
    critique: FeedbackFacts
    brief: Brief
    head: str
    tail: str
    truth: str


@dataclass(frozen=True)
class Placed:
    """A ``Rendered`` whose texts a worker put into the spill's shared part itself
    (``Spill.share``): where they lie instead of the texts."""

    eval_key: str
    critique: FeedbackFacts
    marks: tuple[int, ...]  # what ``SharedPart.put`` returned, for ``Spill.adopt``


@dataclass
class GradedRun:
    """One run, fully graded. ``run`` keeps the directory to write into."""

    run: Run
    brief: Brief
    grading: str  # grading.json, as written
    truth: str  # ground_truth.json, as written


@dataclass(frozen=True, slots=True)  # one per run, kept to the end: no __dict__
class RunPlace:
    """Where a graded run's files go, and its name in messages: all that is kept of
    its ``Run`` (discovery's objects are let go as the runs are graded).

    The run's folder is ``root`` joined with ``rel`` (``inside``), or ``root`` itself
    for a run that does not lie at its ``rel`` (one held in memory). ``root`` is one
    string shared by the runs of a workspace and ``rel`` the run id's own, so a place
    costs a few pointers, not an absolute path per run."""

    root: str
    rel: str
    inside: bool = True

    @property
    def path(self) -> Path:
        return Path(self.root, self.rel) if self.inside else Path(self.root)


def _places(runs: Sequence[Run]) -> Iterator[RunPlace]:
    """The place of each run, in order; a ``RunList``'s without building its Runs."""
    if isinstance(runs, RunList):
        root = str(runs.root)
        for rel in runs.rels:
            yield RunPlace(root, rel)
        return
    roots: dict[str, str] = {}
    for run in runs:
        yield _place(run, roots)


def _place(run: Run, roots: dict[str, str]) -> RunPlace:
    directory, rel = str(run.path), run.id.rel
    root = directory if rel == "." else directory[:-len(rel) - 1]
    if rel != "." and Path(root, rel) != run.path:
        return RunPlace(directory, rel, inside=False)
    return RunPlace(roots.setdefault(root, root), rel)


@dataclass(frozen=True, slots=True)  # one per run, kept to the end: no __dict__
class Stored:
    """One graded run whose texts and brief wait in ``spill``: each is read back when
    asked for, so holding every run's ``Stored`` costs neither report text nor the
    brief's names and keys (its place, and its ticket)."""

    place: RunPlace
    eval_key: str
    ticket: Ticket
    spill: Spill | InMemory
    blocks: dict[str, str]  # eval key -> its eval_feedback block, shared by all runs

    @property
    def grading(self) -> str:
        """grading.json, as written."""
        return join_feedback(self.head, self.block, self.tail)

    @property
    def head(self) -> str:
        """grading.json up to the value of its eval_feedback (``render.split_at_feedback``)."""
        return self.spill.span(self.ticket, 0, 3)

    @property
    def expectations(self) -> str:
        """The value of grading.json's expectations, as ``render.member_text`` gives it."""
        return self.spill.part(self.ticket, 1)

    @property
    def tail(self) -> str:
        """grading.json after the value of its eval_feedback."""
        return self.spill.part(self.ticket, 3)

    @property
    def block(self) -> str:
        """Its eval's eval_feedback block (``render.feedback_text``), shared by the eval's runs."""
        return self.blocks[self.eval_key]

    @property
    def truth(self) -> str:
        """ground_truth.json, as written."""
        return self.spill.part(self.ticket, 4)

    @property
    def brief(self) -> Brief:
        """The run in short, for the terminal, ``--json`` and the totals."""
        run, summary, gate, failed = json.loads(self.spill.part(self.ticket, 5))
        return Brief(run, summary, gate, tuple(failed))

    @property
    def entry(self) -> bytes:
        """The text the grade's ``EntryMaker`` made of this run (``grade_spilled``),
        in UTF-8 as the spill keeps it: it is printed as it is."""
        return self.spill.utf8(self.ticket, 6, 7)

    @property
    def files(self) -> Mapping[str, str]:
        """``{file name: text}`` for the writer, each text read when it is asked for."""
        return _Files(self)


def _brief_text(short: Brief) -> str:
    # JSON gives back exactly what it was given here: dicts of strings, ints, floats
    # (repr round-trips) and nulls, and lists (``failed`` turns back into a tuple).
    return json.dumps([short.run, short.summary, short.gate, short.failed], ensure_ascii=False)


class _Files(Mapping):
    def __init__(self, stored: Stored) -> None:
        self._stored = stored

    def __getitem__(self, name: str) -> str:
        if name == GRADING:
            return self._stored.grading
        if name == GROUND_TRUTH:
            return self._stored.truth
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter((GRADING, GROUND_TRUTH))

    def __len__(self) -> int:
        return 2


def evaluate_run(program: Program, run: Run) -> Evaluated | None:
    """Verdicts and facts for one run; None when no eval of the rules applies.
    Within the wall-clock safety net (``budget.wall_net``): past it the grade stops."""
    from referee.engine.evaluate import evaluate

    compiled = program.for_run(run.id, run.metadata)
    if compiled is None:
        return None
    digest = files_digest(run)  # before the verdicts: a file changed meanwhile makes the grade stale
    with wall_net(f"run {report_path(run.id)}"):
        verdicts = tuple(evaluate(compiled, run))
        return Evaluated(compiled.key, verdicts, run_facts(run, compiled.key, digest), run_contents(run))


def run_facts(run: Run, eval_key: str, digest: str | None = None) -> RunFacts:
    """Everything the report copies from the run, besides the verdicts; ``digest`` is
    the run's ``files_digest``, taken before its verdicts."""
    found_metrics, source = metrics.execution_metrics(run)
    notes = run.user_notes
    transcript = run.transcript
    tools = tuple(call.tool for call in transcript.calls if call.tool)
    timing_file = run.timing
    timing = plain(timing_file.value) if timing_file is not None and isinstance(timing_file.value, dict) else {}
    info = {"path": report_path(run.id), "eval_id": run.id.eval_id, "eval_name": run.id.eval_name,
            "configuration": run.id.configuration, "run_number": run.id.run_number, "rules_eval": eval_key,
            "files_digest": digest}
    return RunFacts(
        info=info, metrics=found_metrics, metrics_source=source, timing=timing,
        claims=tuple(claims.find_claims(run)),
        notes=(notes.uncertainties, notes.needs_review, notes.workarounds),
        skill_type=metrics.run_skill_type(run), tools=tools,
        problems=tuple(str(problem) for problem in run.problems),
        source_map=run.source_map[0],
        tools_certain=transcript.unreadable is None and not transcript.suspect_calls and run.no_record is None,
    )


def render_run(assertions: Sequence[CompiledAssertion], result: Evaluated, grader: dict,
               judged: frozenset[str] = frozenset(), grader_seconds: float | None = None,
               carried: Carried | None = None) -> Rendered:
    """Both files of one run as text, grading.json cut at its empty eval_feedback slot."""
    document = grading_document(assertions, result.verdicts, result.facts, None, grader, judged,
                                grader_seconds, carried)
    head, tail = split_at_feedback(render(document))
    critique = FeedbackFacts(
        path=result.facts.info["path"], configuration=result.facts.info["configuration"],
        tools=result.facts.tools,
        # The verdicts' own outcomes, as the critique always saw them (before the
        # report's trust rule turns a notes-only pass into a fail).
        outcomes=tuple(v.outcome.value for v in result.verdicts),
        vacuous=tuple(v.vacuous for v in result.verdicts), contents=result.contents,
        tools_certain=result.facts.tools_certain)
    return Rendered(result.eval_key, critique, brief(document), head, tail, render(ground_truth(document)))


def grade_run(program: Program, grader: dict, run: Run) -> Rendered | None:
    """Phase 1 for one run without an LLM grader: evaluate, then render."""
    try:
        result = evaluate_run(program, run)
        if result is None:
            return None
        assertions = eval_of(program, result.eval_key).assertions
        kept, dropped = carry.earlier_verdicts(run, assertions, result.verdicts)  # see README, LLM grader
        return render_run(assertions, result, grader, carried=Carried(kept, dropped))
    finally:
        run.release()  # everything the reports need is in them now


# ---- phase 1, serially or in processes ------------------------------------------------

_WORKER: dict[str, Any] = {}


def _start_worker(source: RulesSource, grader: dict, entry: EntryMaker | None = None) -> None:
    # Ctrl-C reaches every process of the terminal's group; the main process alone
    # answers it (it stops the workers), so no worker prints a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker finds the main process's Program for these very texts already
    # in its memory; any other kind of start compiles the texts again.
    inherited = _WORKER.pop("inherited", None)
    forked = inherited is not None and inherited[0] == source
    _WORKER["program"] = inherited[1] if forked else source.compile()
    _WORKER["grader"] = grader
    _WORKER["entry"] = entry
    _WORKER["spill"] = inherited[2] if forked else None  # the spill's files are this process's too


def _evaluate_in_worker(run: Run) -> Evaluated | None:
    return evaluate_run(_WORKER["program"], run)


def _grade_in_worker(run: Run) -> Rendered | Placed | None:
    rendered = grade_run(_WORKER["program"], _WORKER["grader"], run)
    shared = _WORKER.get("spill")
    if rendered is None or shared is None:
        return rendered
    return Placed(rendered.eval_key, rendered.critique, shared.put(*_texts(rendered, _WORKER["entry"])))


def _texts(rendered: Rendered, entry: EntryMaker | None) -> tuple[str, ...]:
    """What the spill keeps of a run, in the order ``Stored`` reads it back: the head
    cut around its expectations (the terminal and ``--json`` read them alone, and
    cutting them out here spares the main process a search through each report),
    and the text ``entry`` makes of the run, if any."""
    before, expectations, after = around_member(rendered.head, "expectations")
    texts = (before, expectations, after, rendered.tail, rendered.truth, _brief_text(rendered.brief))
    return texts if entry is None else (*texts, entry(rendered.brief, expectations))


def _each(task: Callable[[Run], T], local: Callable[[Run], T], runs: Sequence[Run], program: Program,
          source: RulesSource, grader: dict, jobs: int, progress: Progress | None,
          shared: SharedPart | None = None, entry: EntryMaker | None = None) -> Generator[T, None, None]:
    """``local(run)`` for every run here, or ``task(run)`` in ``jobs`` worker processes
    that take the Program from the rule texts, never by pickling it (compiled regexes
    and paths); results in the order of ``runs``. Forked workers also find
    ``shared`` in their memory (``_start_worker``)."""
    if jobs > 1:
        _WORKER["inherited"] = (source, program, shared)
    try:
        yield from in_order(task, local, runs, jobs, progress, _start_worker, (source, grader, entry))
    finally:
        _WORKER.pop("inherited", None)  # a later grade's workers must not find this one's


def evaluate_all(program: Program, runs: Sequence[Run], source: RulesSource, jobs: int = 1,
                 progress: Progress | None = None) -> list[Evaluated | None]:
    """Verdicts and facts of every run, in the order of ``runs`` (None: no eval applies)."""
    return list(_evaluated(program, runs, source, jobs, progress))


def _evaluated(program: Program, runs: Sequence[Run], source: RulesSource, jobs: int,
               progress: Progress | None) -> Generator[Evaluated | None, None, None]:
    return _each(_evaluate_in_worker, lambda run: evaluate_run(program, run), runs, program, source,
                 grader_info(), jobs, progress)


def grade_all(program: Program, runs: Sequence[Run], source: RulesSource, grader: dict, jobs: int = 1,
              progress: Progress | None = None, judge: Judge | None = None,
              extra_feedback: Mapping[str, Sequence[dict]] | None = None) -> list[GradedRun | None]:
    """Grade every run: one entry per run, in order, None where no eval applies; every
    report's text in memory (``grade_spilled`` keeps them on disk instead)."""
    runs = list(runs)
    graded = grade_spilled(program, list(runs), source, grader, InMemory(), jobs, progress, judge, extra_feedback)
    return [None if s is None else GradedRun(run, s.brief, s.grading, s.truth) for run, s in zip(runs, graded)]


def grade_spilled(program: Program, runs: Sequence[Run], source: RulesSource, grader: dict,
                  spill: Spill | InMemory, jobs: int = 1, progress: Progress | None = None,
                  judge: Judge | None = None,
                  extra_feedback: Mapping[str, Sequence[dict]] | None = None,
                  entry: EntryMaker | None = None) -> list[Stored | None]:
    """Grade every run: one entry per run, in order, None where no eval applies. Each
    run's texts and brief go into ``spill`` as it comes back; only its place and its
    ticket stay here, and what its eval's critique needs is folded into a tally.
    Memory does not grow with discovery's objects either: a ``RunList`` (what
    discovery gives) builds each Run only as it is graded, and given a list, each
    graded run's entry in it is set to None once the run is in.
    ``extra_feedback`` adds suggestions to an eval's eval_feedback (``referee
    critique``'s findings, by eval key). ``entry`` makes a text of each run that is
    kept with it (``EntryMaker``); it must be picklable (a module's function).

    Without a judge, workers evaluate and render. With one, workers evaluate and
    the judge (which holds connections, a cassette and a concurrency limit) runs
    here before each run is rendered: its network time dwarfs the rendering.
    """
    stored: list[Stored | None] = []
    extra = extra_feedback or {}
    # Each eval's critique needs all its runs: what it needs of them is folded in
    # as they come (a few names and counts per eval), and rendered at the end.
    tallies: dict[str, EvalTally] = {}
    blocks: dict[str, str] = {}
    shared = spill.share() if jobs > 1 and len(runs) > 1 and judge is None else None
    with closing(_rendered(program, runs, source, grader, jobs, progress, judge, shared, entry)) as rendered:
        for number, (place, result) in enumerate(zip(_places(runs), rendered)):
            if result is None:
                stored.append(None)
                continue
            compiled = eval_of(program, result.eval_key)
            key = compiled.key  # the Program's string, not a copy per run
            if key not in tallies:
                tallies[key] = EvalTally(len(compiled.assertions))
            tallies[key].add(result.critique)
            if isinstance(result, Placed):
                assert isinstance(spill, Spill)  # only a Spill shares a part with workers
                ticket = spill.adopt(result.marks)
            else:
                ticket = spill.put(*_texts(result, entry))
            stored.append(Stored(place, key, ticket, spill, blocks))
            if isinstance(runs, list):
                runs[number] = None  # graded: let it go (see above)
    for key, tally in tallies.items():
        blocks[key] = feedback_text(eval_feedback(eval_of(program, key).assertions, tally, extra.get(key, ())))
    return stored


def _rendered(program: Program, runs: Sequence[Run], source: RulesSource, grader: dict, jobs: int,
              progress: Progress | None, judge: Judge | None, shared: SharedPart | None,
              entry: EntryMaker | None = None) -> Generator[Rendered | Placed | None, None, None]:
    """Phase 1, run by run in order: each run's texts and facts (None: no eval applies),
    or where a worker put its texts in ``shared``."""
    if judge is None:
        with closing(_each(_grade_in_worker, lambda run: grade_run(program, grader, run), runs, program,
                           source, grader, jobs, progress, shared, entry)) as results:
            yield from results
        return
    with closing(_evaluated(program, runs, source, jobs, progress)) as evaluated:
        for run, result in zip(runs, evaluated):
            try:
                rendered = None if result is None else _judge_and_render(program, judge, grader, run, result)
            finally:
                run.release()  # the judge has read what it needed; the report holds the rest
            yield rendered


# ---- phase 2: judge, critique ---------------------------------------------------------


def _judge_and_render(program: Program, judge: Judge, grader: dict, run: Run,
                      result: Evaluated) -> Rendered:
    assertions = eval_of(program, result.eval_key).assertions
    verdicts, judged, usage = judge_run(judge, run, assertions, result.verdicts)
    info = grader if usage is None else {**grader, "llm": _usage(usage)}
    seconds = usage.duration_seconds if usage is not None else None
    decided = frozenset(a.key for a, v in zip(assertions, verdicts)
                        if a.key in judged and v.outcome in (Outcome.PASS, Outcome.FAIL))
    carried = Carried(inputs=carry.grader_inputs(run, assertions, decided))
    return render_run(assertions, Evaluated(result.eval_key, verdicts, result.facts, result.contents), info, judged,
                      seconds, carried)


def judge_run(judge: Judge | None, run: Run, assertions: Sequence[CompiledAssertion],
              verdicts: tuple[Verdict, ...]) -> tuple[tuple[Verdict, ...], frozenset[str], GraderUsage | None]:
    """Hand the run's ungraded semantic assertions to the judge; merge its verdicts."""
    items = [SemanticItem(a.key, a.text, a.semantic_rubric or a.text)
             for a, v in zip(assertions, verdicts)
             if _is_semantic(a) and v.outcome is Outcome.NOT_GRADED]
    if judge is None or not items:
        return verdicts, frozenset(), None
    result = judge.grade(run, items)
    asked = {item.key for item in items}
    merged = []
    for assertion, verdict in zip(assertions, verdicts):
        if assertion.key not in asked:
            merged.append(verdict)
            continue
        judged = result.verdicts.get(assertion.key)
        merged.append(after_rule_part(verdict, judged) if judged is not None else
                      Verdict(Outcome.ERROR, "the LLM grader returned no verdict for this assertion"))
    return tuple(merged), frozenset(asked), result.usage


def eval_of(program: Program, key: str) -> CompiledEval:
    """The compiled eval named ``key`` (programs hold a handful: a scan is enough)."""
    return next(compiled for compiled in program.evals if compiled.key == key)


def _usage(usage: GraderUsage) -> dict[str, Any]:
    """grading.json's ``grader.llm`` block (``LlmUsage``'s fields, in its order)."""
    return {"model": usage.model, "backend": usage.backend, "requests": usage.requests,
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
