"""Read the grading.json of every run found under a workspace, for aggregation.

A run is usable when its grading.json was written by referee (``grader.name`` is
"referee") and has the fields aggregation needs; every other run (no grading.json,
a file another grader wrote, broken JSON) is reported by path with the reason,
and never counted as 0 %. Tokens and time come from ``timing.json`` (grading.json's
copy of it when the file is gone), never from a character count.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from referee.dsl.frozen import frozen
from referee.engine.caps import cut
from referee.engine.decision.provenance import inputs_of, judges_of, rules_of
from referee.engine.decision.recount import Item, disagreements
from referee.engine.decision.shape import grading_shape, shape_problem
from referee.engine.decision.unread import read_in_part
from referee.engine.facts.metrics_fields import LARGEST_FIGURE
from referee.engine.report.freshness import copied_grade, copied_runs, file_digest, graded_elsewhere, stale_grade
from referee.engine.report.marker import GRADING
from referee.engine.run.model import RunId
from referee.engine.run.workspace import Run, discover, natural_key, report_path
from referee.engine.text import plain

if TYPE_CHECKING:
    from referee.engine.run.discovery import Discovery


@frozen
class AssertionResult:
    """One expectation of a graded run, as aggregation needs it."""

    key: str
    text: str
    outcome: str  # pass, fail, error, not_graded
    counted: bool  # counted toward the run's gate
    precision: str
    evidence: str


@frozen
class GradedRun:
    """One run's numbers. Rates are None when nothing counted (never a made-up 0)."""

    path: str
    eval_id: str
    eval_name: str | None
    configuration: str
    run_number: int
    iteration: int | None
    gate_passed: int
    gate_total: int
    graded_passed: int
    graded_total: int
    gate_errors: int  # errored assertions that count toward the gate
    not_graded: int  # semantic assertions left without a verdict
    time_seconds: float | None
    tokens: int | None
    tool_calls: int | None
    errors: int | None  # errors the executor met (metrics' errors_encountered)
    expectations: tuple[AssertionResult, ...]
    label: str | None = None  # a run folder's own name when it is not run-<number>
    rules: tuple[str, ...] = ()  # the rules files that graded it, ``name@digest`` (rules_location)
    inputs: tuple[str, ...] | None = ()  # the input files its rules read (``inputs_of``); None: not recorded
    judges: tuple[str, ...] = ()  # the LLM graders that gave its verdicts (``judges_of``)
    version: str = ""  # the referee version that graded it (grader.version)
    warnings: tuple[str, ...] = ()  # numbers it holds that were left out, and why
    unread: str | None = None  # why the run was read only in part (``unread.read_in_part``)
    # the place and files its grading.json records (``run.path``, ``run.files_digest``)
    origin: tuple[Any, Any] = (None, None)

    @property
    def gate_rate(self) -> float | None:
        return self.gate_passed / self.gate_total if self.gate_total else None

    @property
    def graded_rate(self) -> float | None:
        return self.graded_passed / self.graded_total if self.graded_total else None


@frozen
class Unusable:
    """A run that aggregation could not use, and why (said to the user, never a 0 %)."""

    path: str
    eval_id: str
    configuration: str
    reason: str


@dataclass
class Collected:
    """Usable runs in a stable order, unusable ones, and layout warnings."""

    runs: list[GradedRun] = field(default_factory=list)
    sources: dict[str, Run] = field(default_factory=dict)  # path -> Run, for the tool calls
    unusable: list[Unusable] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    iterations: tuple[int, ...] = ()
    gradings: dict[str, str | None] = field(default_factory=dict)  # path -> digest of its grading.json


def collect(workspace: Path, iteration: int | None = None) -> Collected:
    """Every run under ``workspace`` with its grading; ``iteration`` picks one
    iteration when several are present (default: the highest, said in ``warnings``)."""
    found = discover(workspace)
    _refuse_unread_runs(found)
    result = Collected(warnings=[str(p) for p in found.problems])
    runs = _one_iteration(found.runs, iteration, result)
    others = _other_iterations(found.runs, runs)
    for run in runs:
        result.gradings[report_path(run.id)] = file_digest(run.path / GRADING)
        graded = read_graded(run)
        run.release()  # 10,000 runs: keep no parsed file alive
        origin = graded_elsewhere(graded.path, graded.origin[0], others) if isinstance(graded, GradedRun) else None
        if origin is not None:
            graded = Unusable(graded.path, graded.eval_id, graded.configuration, copied_grade(origin))
        if isinstance(graded, Unusable):
            result.unusable.append(graded)
        else:
            result.runs.append(graded)
            result.sources[graded.path] = run
            result.warnings.extend(graded.warnings)
    result.unusable += _unread_folders(found.unread, {run.id.iteration for run in runs})
    result.runs.sort(key=run_order)
    result.unusable.sort(key=lambda u: natural_key(u.path))
    _refuse_copies(result.runs)
    return result


def _unread_folders(unread: Sequence[RunId], iterations: set[int | None]) -> list[Unusable]:
    """The run folders of the iterations read that cannot be read (no outputs/):
    runs not counted, which the release decision says (its ``unusable_runs``)."""
    return [Unusable(rid.rel, rid.eval_id, rid.configuration, "its folder has no outputs/: the run cannot be read")
            for rid in unread if rid.iteration in iterations]


def _other_iterations(found: Sequence[Run], runs: Sequence[Run]) -> tuple[str, ...]:
    """The places of the runs of the iterations not read."""
    if len(runs) == len(found):
        return ()
    read = {run.id.rel for run in runs}
    rels = getattr(found, "rels", None) or tuple(run.id.rel for run in found)
    return tuple(rel for rel in rels if rel not in read)


def _refuse_copies(runs: Sequence[GradedRun]) -> None:
    """A run folder copied after its grade would count one run's verdicts twice."""
    from referee.engine.usage import UsageError

    problem = copied_runs((run.path, run.iteration, *run.origin) for run in runs)
    if problem is not None:
        raise UsageError(f"{problem}; nothing was read")


def _refuse_unread_runs(found: Discovery) -> None:
    """A workspace ``grade`` refuses is refused here too (``discovery.refusal``)."""
    from referee.engine.run.discovery import refusal
    from referee.engine.usage import UsageError

    why = refusal(found)
    if why is not None:
        raise UsageError(why)


def run_order(run: GradedRun) -> tuple:
    """The one order of runs everywhere: eval, configuration, run number, path."""
    return natural_key(run.eval_id), run.configuration, run.run_number, natural_key(run.path)


def _one_iteration(runs: Sequence[Run], wanted: int | None, result: Collected) -> Sequence[Run]:
    numbers = sorted({r.id.iteration for r in runs if r.id.iteration is not None})
    result.iterations = tuple(numbers)
    if wanted is not None:
        return [r for r in runs if r.id.iteration == wanted]
    if len(numbers) <= 1:
        return runs
    latest = numbers[-1]
    result.warnings.append(f"{len(numbers)} iterations found ({', '.join(map(str, numbers))}); "
                           f"aggregating iteration {latest} (choose with --iteration N)")
    return [r for r in runs if r.id.iteration in (latest, None)]


def read_graded(run: Run) -> GradedRun | Unusable:
    """The run's numbers from its grading.json, or why it cannot be used."""
    path = report_path(run.id)
    document = _load_grading(run.path / GRADING)
    if isinstance(document, str):
        return Unusable(path, run.id.eval_id, run.id.configuration, document)
    wrong = shape_problem(document, grading_shape("aggregate"))
    if wrong is not None:
        return Unusable(path, run.id.eval_id, run.id.configuration,
                        f"{GRADING} is not as referee writes it ({wrong}): it was changed after referee "
                        "wrote it; grade the run again with referee grade")
    try:
        forged = disagreements(_items(document), document["summary"], document["gate"])
        if forged:
            return Unusable(path, run.id.eval_id, run.id.configuration,
                            f"{GRADING}'s counts disagree with its expectations ({'; '.join(forged[:3])}): "
                            "it was changed after referee wrote it; grade the run again")
        if stale_grade(_recorded_digest(document), run):
            return Unusable(path, run.id.eval_id, run.id.configuration, STALE)
        return _graded(run, path, document)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return Unusable(path, run.id.eval_id, run.id.configuration,
                        f"{GRADING} lacks what aggregation needs ({exc}); "
                        "grade the run again with referee grade")


def _load_grading(file: Path) -> dict | str:
    """The parsed grading.json, or the reason it cannot be used."""
    from referee.engine.report.run_report import read_report

    document = read_report(file.parent, file.name)
    if isinstance(document, dict):
        return document
    if document.code == "missing":
        return f"no {GRADING}: grade the run first (referee grade WORKSPACE ...)"
    if document.code == "not-a-file":  # there is one: a folder, a FIFO or a link in its place (as report says)
        return f"{GRADING} is {document.not_a_file()}; grade the run again"
    if document.code == "too-large":
        return f"{GRADING} is over 32 MiB; not read"
    if document.code == "not-an-object":
        return f"{GRADING} is not a JSON object; grade the run again"
    if document.code == "foreign":
        return (f"{GRADING} was not written by referee ({document.message}); its numbers are not "
                "comparable: grade the run with referee grade --force")
    return f"{GRADING} is not readable JSON ({document.message}); grade the run again"


STALE = (f"{GRADING} is older than the run: its files changed since it was graded (imported or "
         "edited again); grade the run again")


def _recorded_digest(document: dict) -> str | None:
    info = document.get("run")
    digest = info.get("files_digest") if isinstance(info, dict) else None
    return digest if isinstance(digest, str) else None


def _recorded_origin(document: dict) -> tuple[Any, Any]:
    info = document.get("run")
    return (info.get("path"), _recorded_digest(document)) if isinstance(info, dict) else (None, None)


def _recorded_inputs(document: dict) -> Any:
    info = document.get("run")
    return info.get("inputs") if isinstance(info, dict) else None


def _items(document: dict) -> list[Item]:
    return [Item(str(e["key"]), e["outcome"], e["passed"], e["precision"], e["gated"])
            for e in document["expectations"]]


def _graded(run: Run, path: str, document: dict) -> GradedRun:
    summary, gate = document["summary"], document["gate"]
    counted = set(gate["counted"])
    expectations = tuple(
        AssertionResult(str(e["key"]), str(e["text"]), str(e["outcome"]), e["key"] in counted,
                        str(e.get("precision", "")), str(e.get("evidence", "")))
        for e in document["expectations"])
    metrics = document.get("execution_metrics") or {}
    warnings: list[str] = []
    time_seconds, tokens = _timing(run, path, document.get("timing"), warnings)
    tokens = _whole_usage(run, path, tokens, warnings)
    where = f"{path}/{GRADING} execution_metrics"
    return GradedRun(
        path=path, eval_id=run.id.eval_id, eval_name=run.id.eval_name,
        configuration=run.id.configuration, run_number=run.id.run_number, iteration=run.id.iteration,
        gate_passed=_count(gate["passed"]), gate_total=_count(gate["total"]),
        graded_passed=_count(summary["passed"]), graded_total=_count(summary["total"]),
        gate_errors=sum(1 for e in expectations if e.counted and e.outcome == "error"),
        not_graded=sum(1 for e in expectations if e.outcome == "not_graded"),
        time_seconds=time_seconds, tokens=tokens,
        tool_calls=_whole(metrics, "total_tool_calls", where, warnings) if isinstance(metrics, dict) else None,
        errors=_whole(metrics, "errors_encountered", where, warnings) if isinstance(metrics, dict) else None,
        expectations=expectations, label=run.id.extra.get("run_label"),
        rules=rules_of(str(e.get("rules_location", "")) for e in document["expectations"]),
        inputs=inputs_of(run.id.eval_id, _recorded_inputs(document)),
        judges=judges_of((document.get("grader") or {}).get("llm"),
                         ((e.get("method"), e.get("judged_by")) for e in document["expectations"])),
        version=str(document["grader"].get("version")),
        warnings=tuple(warnings), origin=_recorded_origin(document), unread=read_in_part(run))


def _whole_usage(run: Run, path: str, tokens: int | None, warnings: list[str]) -> int | None:
    """``tokens``, unless an import counted them from a source it could not read in full:
    the usage of a line not read, or of a subagent whose log is not there, is not in
    the count, so it is a lower bound, not the run's tokens."""
    source_map = run.source_map[0]
    incomplete = run.calls_incomplete() if tokens is not None and source_map is not None else None
    if incomplete is None:
        return tokens
    warnings.append(f"{path}: total_tokens is {tokens}, but {incomplete}, and the usage of what was not read "
                    "is not counted; left out of the figures")
    return None


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a count, found {value!r}")
    return value


def _timing(run: Run, path: str, copied: Any, warnings: list[str]) -> tuple[float | None, int | None]:
    """Seconds and tokens from timing.json; grading.json's copy when the file is gone."""
    source = run.timing.value if run.timing is not None else None
    where = f"{path}/{run.timing.path}" if run.timing is not None else ""
    if not isinstance(source, dict):
        source = copied if isinstance(copied, dict) else {}
        where = f"{path}/{GRADING} timing"
    # The executor's time is the run's: a total beside it may time the grading too
    # (skill-creator's grading.json makes it executor + grader, and harnesses copy that).
    seconds = _number(source, "executor_duration_seconds", where, warnings)
    if seconds is None:
        seconds = _number(source, "total_duration_seconds", where, warnings)
    if seconds is None:
        millis = _number(source, "duration_ms", where, warnings)
        seconds = millis / 1000 if millis is not None else None
    return seconds, _counted(_whole(source, "total_tokens", where, warnings), seconds, where, warnings)


def _counted(tokens: int | None, seconds: float | None, where: str, warnings: list[str]) -> int | None:
    """``tokens``, unless it is 0 beside a run that took time: a model that answered
    read and wrote tokens, so the 0 is a harness that could not count them (the
    Copilot CLI reports premium requests, not tokens), not a run that cost nothing.
    Counted, it would pull the mean down and show configurations as costing the same."""
    if tokens == 0 and seconds:
        warnings.append(f"{where}: total_tokens is 0 beside {seconds:g} s of run, so no count of tokens; "
                        "left out of the figures")
        return None
    return tokens


# Beyond 2^53 a JSON number is no longer exact for most readers, and sums and
# squares of such numbers over thousands of runs leave the range of a float: a
# figure that large is no measurement of a run, and is left out, saying so (grade
# leaves it out of grading.json by the same bound).
LARGEST = LARGEST_FIGURE


def _number(source: dict, name: str, where: str, warnings: list[str]) -> float | None:
    """``source[name]`` as a float when it is a number from 0 to ``LARGEST``; None
    otherwise (absent, not a number, negative), with a warning when it is too large."""
    value = source.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        # Text is no figure, even one float() reads ("41.3", "1_000"): grade left it
        # out of grading.json's timing, so the benchmark does not count it either.
        shown = cut(json.dumps(plain(value), ensure_ascii=False), 40)
        warnings.append(f"{where}: {name} is {shown}, not a number; left out of the figures")
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    except OverflowError:  # an integer of hundreds of digits
        number = math.inf
    if number > LARGEST:
        shown = f"{number:g}" if math.isfinite(number) else "beyond any float"
        warnings.append(f"{where}: {name} is {shown}, above {LARGEST:,} (2^53, where JSON numbers stop "
                        "being exact); left out of the figures")
        return None
    return number if number >= 0 else None  # NaN compares false: left out too


def _whole(source: dict, name: str, where: str, warnings: list[str]) -> int | None:
    number = _number(source, name, where, warnings)
    return int(number) if number is not None and number == int(number) else None
