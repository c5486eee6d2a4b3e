"""Can this eval tell? Each eval is put to tests that a useful eval passes.

- **Null run.** A run that did nothing is graded with the rules (deterministically):
  its transcript is a record of zero tool calls (a harness section alone, so that
  checks over calls are decided on it, not left as errors), its response is
  empty, and it has no output file. It must FAIL the eval's gate. An eval whose
  gate a null run passes, or whose gate counts nothing, cannot tell a run that did
  the work from one that did nothing.
- **Reference runs.** Where the author gives runs known to be right
  (``--reference DIR``, a folder of runs laid out like a workspace), each must
  PASS its eval's gate.
- **Discrimination.** Per assertion, the share of the primary's and of the
  baseline's graded runs where it passed; an assertion with the same share on
  both sides does not tell the configurations apart.
- **Power.** The pairs each eval gives ``compare``, and the fewest non-tie evals
  the sign test needs (``signtest.floor``).
- **Mutation score.** From ``referee critique``: of the mutants that break what
  an assertion claims, the share that made it fail.
- **Judge flip rate (A/A).** With ``--llm``, every run's semantic assertions are
  asked twice, the second time in a fresh conversation marked as a second
  reading; the share of verdicts that differ.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from referee.engine.compare.load import Loaded
from referee.engine.compare.signtest import floor
from referee.engine.compile import Program
from referee.engine.judging import Judge
from referee.engine.run.memory import MemoryRun
from referee.engine.run.model import RunId
from referee.engine.run.reading import NO_FILES, ResponseFiles
from referee.engine.run.workspace import Run, discover, report_path


@dataclass
class EvalValidity:
    eval_id: str
    eval_name: str | None
    null_run: dict
    reference: list[dict] | None = None
    discrimination: list[dict] | None = None
    pairs: int = 0
    mutation: dict | None = None
    judge: dict | None = None
    findings: list[str] = field(default_factory=list)

    @property
    def can_tell(self) -> bool:
        return self.null_run["gate"] == "FAIL" and all(r["gate"] == "PASS" for r in self.reference or [])


def gate_of(program: Program, run: Run, response: str | None = None) -> dict | None:
    """The gate of ``run`` graded with ``program``: PASS, FAIL or EMPTY, the counts, and
    the gated assertions that passed and failed; None when no eval applies.
    ``response`` is ``--response``, which the run was built to read."""
    from referee.engine.api import grade

    results = grade(program, [run], response=response)
    if not results:
        return None
    grading = results[0].grading
    gate = grading["gate"]
    outcomes = {e["key"]: e["outcome"] for e in grading["expectations"]}
    status = "EMPTY" if not gate["total"] else "PASS" if gate["passed"] == gate["total"] else "FAIL"
    return {"gate": status, "passed": gate["passed"], "total": gate["total"],
            "passing": [k for k in gate["counted"] if outcomes.get(k) == "pass"],
            "failing": [k for k in gate["counted"] if outcomes.get(k) != "pass"]}


NULL_TRANSCRIPT = "## [harness] null run\nThe agent made no tool call, wrote no file and replied nothing.\n"


def null_run(eval_key: str, eval_name: str | None, responses: ResponseFiles = NO_FILES) -> Run:
    """A run of the eval that did nothing: a record of zero calls, an empty response, no
    outputs. Its response is the file ``responses`` names for the eval, as a run of the
    eval graded reads it (empty), else outputs/response.md."""
    run_id = RunId(f"null-run/eval-{eval_key}", eval_key, eval_name, "null-run", 1)
    named = responses.named(run_id)
    response = named[0] if named is not None else "outputs/response.md"
    files = {"transcript.md": NULL_TRANSCRIPT, response: ""}
    # Not memory_run, which refuses an id or name that cannot be a folder's: the rules
    # may key an eval `eval "a/b"` or name it "..", and this run's place is its RunId's.
    return MemoryRun(files, run_id, responses=ResponseFiles(None if named is None else response))


def check(program: Program, reference: Path | None, graded: Loaded | None, roles: tuple[str, str] | None,
          mutation: dict[str, dict] | None, judged: dict[str, dict] | None,
          responses: ResponseFiles = NO_FILES) -> list[EvalValidity]:
    """Every eval of ``program``, in its order; ``responses`` names each reference
    run's response as ``grade`` reads it (``reading.response_files``)."""
    references = _references(program, reference, responses)
    found = []
    for ev in program.evals:
        null = null_run(ev.key, ev.name, responses)
        result = EvalValidity(ev.key, ev.name, gate_of(program, null, responses.default) or {})
        result.reference = references.get(ev.key, []) if reference is not None else None
        if graded is not None and roles is not None:
            result.discrimination = _discrimination(graded, ev.key, roles)
            result.pairs = _pairs(graded, ev.key, roles)
        result.mutation = (mutation or {}).get(ev.key)
        result.judge = (judged or {}).get(ev.key)
        result.findings = _findings(result)
        found.append(result)
    return found


def _references(program: Program, folder: Path | None, responses: ResponseFiles) -> dict[str, list[dict]]:
    """Each eval's reference runs with their gates. A reference run that cannot be
    checked (no eval of the rules matches it, or none applies) is an input error,
    as is a folder that holds no run: skipped, it would leave "every reference run
    passes" true of runs never graded."""
    from referee.engine.usage import UsageError

    if folder is None:
        return {}
    if not folder.is_dir():
        raise UsageError(f"--reference {folder}: not a folder")
    found: dict[str, list[dict]] = {}
    unmatched = []
    runs = discover(folder, responses).runs
    for run in runs:
        compiled = program.for_run(run.id, run.metadata)
        gate = gate_of(program, run, responses.default) if compiled is not None else None
        if compiled is None or gate is None:
            unmatched.append(report_path(run.id))
        else:
            found.setdefault(compiled.key, []).append({"run": report_path(run.id), **gate})
    if not len(runs):
        raise UsageError(f"--reference {folder}: no run found (a run is a folder holding outputs/)")
    if unmatched:
        shown = ", ".join(unmatched[:5]) + (f" and {len(unmatched) - 5} more" if len(unmatched) > 5 else "")
        raise UsageError(f"--reference {folder}: {shown} match{'es' if len(unmatched) == 1 else ''} no eval of "
                         "the rules, so it cannot be checked against a gate; give runs of the rules' evals")
    return found


def _discrimination(graded: Loaded, eval_id: str, roles: tuple[str, str]) -> list[dict]:
    rows: dict[str, dict] = {}
    for run in graded.runs:
        if run.eval_id != eval_id or run.configuration not in roles:
            continue
        side = "primary" if run.configuration == roles[0] else "baseline"
        for item in run.items:
            if item.graded:
                row = rows.setdefault(item.key, {"key": item.key, "text": item.text,
                                                 "primary": Counter(), "baseline": Counter()})
                row[side]["runs"] += 1
                row[side]["passed"] += item.passed
    return [_rated(row) for row in rows.values()]


def _rated(row: dict) -> dict:
    primary, baseline = (round(row[s]["passed"] / row[s]["runs"], 4) if row[s]["runs"] else None
                         for s in ("primary", "baseline"))
    known = primary is not None and baseline is not None
    return {"key": row["key"], "text": row["text"], "primary": primary, "baseline": baseline,
            "difference": round(primary - baseline, 4) if primary is not None and baseline is not None else None,
            "discriminates": known and primary != baseline}


def _pairs(graded: Loaded, eval_id: str, roles: tuple[str, str]) -> int:
    counts = Counter(r.configuration for r in graded.runs if r.eval_id == eval_id)
    return counts[roles[0]] * counts[roles[1]]


def _findings(result: EvalValidity) -> list[str]:
    found = []
    null = result.null_run
    if null.get("gate") == "EMPTY":
        found.append("its gate counts nothing, so a null run is not failed: it cannot tell a run that did "
                     "the work from one that did nothing")
    elif null.get("gate") == "PASS":
        found.append(f"a null run (no tool calls, no response, no outputs) passes its gate "
                     f"({', '.join(null['passing'])}): it cannot tell a run that did nothing")
    elif null.get("passing"):
        found.append(f"a null run passes {', '.join(null['passing'])} (the gate still fails): those "
                     "assertions pass on nothing")
    for ref in result.reference or []:
        if ref["gate"] != "PASS":
            found.append(f"the reference run {ref['run']} does not pass its gate ({ref['gate']}; failing "
                         f"{', '.join(ref['failing']) or 'nothing counted'})")
    same = [row["key"] for row in result.discrimination or [] if row["discriminates"] is False]
    if same:
        found.append(f"{', '.join(same)} pass{'es' if len(same) == 1 else ''} in the same share of runs "
                     "in both configurations: no discrimination")
    return found


def power(graded: Loaded | None, roles: tuple[str, str] | None) -> dict:
    both = 0
    if graded is not None and roles is not None:
        both = sum(1 for eval_id, _ in graded.evals() if _pairs(graded, eval_id, roles))
    need = floor()
    return {"evals_with_both": both, "min_non_tie": need, "enough": both >= need}


def mutation_scores(critiques: Sequence) -> dict[str, dict]:
    """Per eval: breaking mutants tried and killed (``engine.critique``'s ``Critique``)."""
    found: dict[str, Counter] = {}
    for c in critiques:
        tally = found.setdefault(c.eval_key, Counter())
        for tried in c.tried:
            if tried.must_fail:
                tally["mutants"] += 1
                tally["killed"] += not tried.passed
    return {key: {"killed": t["killed"], "mutants": t["mutants"],
                  "score": round(t["killed"] / t["mutants"], 4) if t["mutants"] else None}
            for key, t in found.items()}


def flip_rates(program: Program, runs: Sequence[Run], judges: tuple[Judge, Judge]) -> dict[str, dict]:
    """Per eval: semantic verdicts asked twice, and how many differ between the readings.
    A verdict that is an error in either reading (no reply in the cassette, a grader
    that failed) is no reading of the run: it is counted ``unusable``, not compared,
    or two errors would count as a judge that agrees with itself."""
    from referee.engine.grade import eval_of, evaluate_run, judge_run
    from referee.engine.verdict import Outcome

    found: dict[str, Counter] = {}
    for run in runs:
        result = evaluate_run(program, run)
        if result is None:
            continue
        assertions = eval_of(program, result.eval_key).assertions
        first, asked, _ = judge_run(judges[0], run, assertions, result.verdicts)
        second, _, _ = judge_run(judges[1], run, assertions, result.verdicts)
        tally = found.setdefault(result.eval_key, Counter())
        for assertion, one, two in zip(assertions, first, second):
            if assertion.key not in asked:
                continue
            if Outcome.ERROR in (one.outcome, two.outcome):
                tally["unusable"] += 1
                continue
            tally["asked"] += 1
            tally["flipped"] += one.outcome != two.outcome
        run.release()
    return {key: {"asked": t["asked"], "flipped": t["flipped"], "unusable": t["unusable"],
                  "rate": round(t["flipped"] / t["asked"], 4) if t["asked"] else None}
            for key, t in found.items()}
