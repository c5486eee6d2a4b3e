"""The critique as a document (``--json``) and as lines for the console."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.engine.critique.assess import Critique
from referee.engine.critique.coverage import EvalCoverage

SCHEMA_VERSION = 1


def document(critiques: Sequence[Critique], coverage: Sequence[EvalCoverage]) -> dict:
    return {
        "schema_version": SCHEMA_VERSION,
        "assertions": [_assertion(c) for c in critiques],
        "coverage": [{"eval": c.eval_key, "no_rule": c.no_rule, "no_check": c.no_check,
                      "unwatched_tools": c.unwatched_tools,
                      "same_everywhere": [{"assertion": k, "outcome": o} for k, o in c.same_everywhere]}
                     for c in coverage],
        "weak": sum(1 for c in critiques if c.weak),
    }


def _assertion(c: Critique) -> dict:
    return {
        "eval": c.eval_key, "key": c.key, "text": c.text, "precision": c.precision,
        "weak": c.weak, "reasons": c.reasons(), "passing_runs": c.passing_runs,
        "vacuous_runs": c.vacuous_runs, "not_judged": c.not_judged, "also_passes": c.also_passes,
        "mutants": [{"run": t.run, "mutant": t.mutant, "must_fail": t.must_fail,
                     "survived": t.passed} for t in c.tried],
    }


def lines(critiques: Sequence[Critique], coverage: Sequence[EvalCoverage], color: bool = False) -> list[str]:
    """The console's lines: each assertion (WEAK or ok, with what its mutants showed),
    then each eval's coverage."""
    from referee.engine.report.color import paint

    out = []
    for c in critiques:
        killed = sum(1 for t in c.tried if t.must_fail and not t.passed)
        must = sum(1 for t in c.tried if t.must_fail)
        if not c.passing_runs:
            out.append(f"--    {_shown(c.key)} {_shown(c.text)}\n      passed in no run: nothing to critique")
            continue
        passing = f"{len(c.passing_runs)} passing run{'s' if len(c.passing_runs) != 1 else ''}"
        if not must and not c.weak:  # "ok, 0 of 0" would read as tested
            out.append(f"--    {_shown(c.key)} {_shown(c.text)}\n      untested: no mutant of what it claims could "
                       f"be built to break it, over {passing}")
            continue
        label = paint("WEAK", "FAIL", color) if c.weak else paint("ok", "PASS", color) + "  "
        out.append(f"{label}  {_shown(c.key)} {_shown(c.text)}\n      {killed} of {must} breaking mutants made it fail, "
                   f"over {passing}")
        for reason in c.reasons():
            runs = Counter(t.run for t in c.survivors if t.reason == reason)
            where = f" ({len(runs)} run{'s' if len(runs) != 1 else ''})" if runs else ""
            out.append(f"      - {_shown(reason)}{where}")
    for cov in coverage:
        out += _coverage_lines(cov)
    return out


def _coverage_lines(cov: EvalCoverage) -> list[str]:
    out = []
    if cov.no_rule:
        out.append(f"eval {_shown(cov.eval_key)}: {_expectations(cov.no_rule)} of evals.json "
                   f"{'has' if len(cov.no_rule) == 1 else 'have'} no rule")
    if cov.no_check:
        out.append(f"eval {_shown(cov.eval_key)}: {_expectations(cov.no_check)} "
                   f"{'has' if len(cov.no_check) == 1 else 'have'} no check: left to the LLM grader")
    if cov.unwatched_tools:
        out.append(f"eval {_shown(cov.eval_key)}: tools the runs call that no assertion looks at: "
                   + ", ".join(_shown(tool) for tool in cov.unwatched_tools))
    for key, outcome in cov.same_everywhere:
        out.append(f"eval {_shown(cov.eval_key)}: {_shown(key)} is {outcome} in every configuration: it does not "
                   "tell them apart")
    return out


def _shown(text: str) -> str:
    """A name or reason from the workspace or its runs (an eval id, a sentence, a tool
    name, what a mutant showed) made inert and kept on its line, as grade prints it: an
    escape sequence would drive the terminal, and a line break start a line that a CI
    runner reads as a workflow command (``::error::...``)."""
    from referee.engine.report.inert import inert

    return inert(str(text)).replace("\n", "\\n")


def _expectations(numbers: Sequence[int]) -> str:
    """``expectation 7``, ``expectations 7 and 8``, ``expectations 2, 5 and 7``: which
    expectations (by their number in evals.json), never to be read as a count."""
    listed = [str(n) for n in numbers]
    joined = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]
    return f"expectation{'s' if len(listed) > 1 else ''} {joined}"
