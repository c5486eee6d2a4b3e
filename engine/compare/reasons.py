"""What ``compare``, ``validate`` and a blessed baseline add to ``aggregate``'s decision.

``referee compare`` leaves ``comparison/summary.json`` and ``referee validate``
``validity.json`` in the workspace. ``aggregate`` turns each into a reason of its
release decision (rules ``comparison`` and ``eval_validity`` of
rules/release.toml) while it is about the runs aggregate reads: both record a
digest of those runs' verdicts (``load.outcomes_digest``), which aggregate
computes again from its own reading. One about other runs, or other
configurations, is left out with a note saying why. ``--against FILE`` diffs the
benchmark with a blessed benchmark.json; with ``--fail-on-regression`` its result
is the reason ``regression``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from referee.engine.compare.consistency import summary_problems, validity_problems
from referee.engine.compare.load import outcomes_digest
from referee.engine.decision.release import Reason
from referee.engine.run.safeio import read_json
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.compare.diffing import Diff

SUMMARY = "comparison/summary.json"
VALIDITY = "validity.json"


def found_reasons(workspace: Path, runs: Sequence, primary: str, baseline: str | None) -> tuple[list[Reason], list[str]]:
    """The reasons from the comparison and validity files of ``workspace``, and notes
    on the files left out. ``runs`` are aggregate's graded runs (``decision.collect``)."""
    digest = outcomes_digest((r.path, [(e.key, e.outcome) for e in r.expectations]) for r in runs)
    reasons: list[Reason] = []
    notes: list[str] = []
    summary = _document(workspace, SUMMARY, digest, notes)
    if summary is not None:
        if (summary.get("primary"), summary.get("baseline")) != (primary, baseline):
            notes.append(f"{SUMMARY} compares {summary.get('primary')} with {summary.get('baseline')}, not "
                         f"{primary} with {baseline}: left out of the release decision")
        else:
            _require_consistent(SUMMARY, "compare", summary_problems(summary, _pairs(runs, primary, baseline)))
            reasons.append(_comparison(summary))
    validity = _document(workspace, VALIDITY, digest, notes)
    if validity is not None:
        _require_consistent(VALIDITY, "validate", validity_problems(validity, sorted({r.eval_id for r in runs})))
        reasons.append(_validity(validity))
    return reasons, notes


def _pairs(runs: Sequence, primary: str, baseline: str | None) -> dict[str, int]:
    """Each eval's pairs as ``compare`` makes them: its primary runs times its baseline runs."""
    counts = Counter((r.eval_id, r.configuration) for r in runs)
    return {eval_id: counts[eval_id, primary] * counts[eval_id, baseline] for eval_id, _ in counts}


def _require_consistent(name: str, command: str, problems: list[str]) -> None:
    """Refuse a file whose decision is not the one its own figures give: left out, it
    would let the decision pass without the breach it hides; believed, it would be
    the edit that decides."""
    if problems:
        raise UsageError(f"{name}: {'; '.join(problems[:3])}: it was changed after referee {command} wrote "
                         f"it; run `referee {command}` again")


def _document(workspace: Path, name: str, digest: str, notes: list[str]) -> dict | None:
    found = read_json(workspace, name)
    if found is None:
        return None
    value = found.value
    inputs = value.get("inputs") if isinstance(value, dict) else None
    if isinstance(value, dict) and "inputs" in value and inputs is None:
        notes.append(f"{name} was made without runs graded by its rules: left out of the release decision; "
                     "run it again")
        return None
    if not isinstance(inputs, dict) or not isinstance(inputs.get("digest"), str):
        notes.append(f"{name} is not one referee wrote (no inputs digest): left out of the release decision")
        return None
    if inputs["digest"] != digest:
        notes.append(f"{name} is about other verdicts than the runs aggregated (graded again since, or "
                     f"another iteration): left out of the release decision; run it again")
        return None
    return value


def _comparison(summary: dict) -> Reason:
    test = summary.get("sign_test") or {}
    ok = test.get("result") == "primary better"
    return Reason("comparison", "ok" if ok else "breach",
                  f"{summary.get('primary')} against {summary.get('baseline')} (referee compare, "
                  f"{summary.get('pairs')} pairs): {summary.get('decision')}")


def _validity(validity: dict) -> Reason:
    evals = [e for e in validity.get("evals") or [] if isinstance(e, dict)]
    bad = [e for e in evals if not e.get("can_tell")]
    if bad:
        listed = "; ".join(f"eval {e.get('eval_id')}: {(e.get('findings') or ['cannot tell'])[0]}" for e in bad)
        return Reason("eval_validity", "breach", f"{len(bad)} of {len(evals)} evals cannot tell (referee "
                                                 f"validate): {listed}")
    measures = [f"a null run fails every eval's gate ({len(evals)} evals)"]
    killed = [e["mutation"] for e in evals if isinstance(e.get("mutation"), dict) and e["mutation"].get("mutants")]
    if killed:
        k, m = sum(x["killed"] for x in killed), sum(x["mutants"] for x in killed)
        measures.append(f"mutation score {k}/{m}")
    flips = validity.get("judge_flip_rate")
    if isinstance(flips, dict) and flips.get("asked"):
        measures.append(f"judge flip rate {flips['flipped']}/{flips['asked']} (A/A)")
    return Reason("eval_validity", "ok", "; ".join(measures) + " (referee validate)")


def against(path: Path, doc: dict):
    """The diff of ``doc`` (this benchmark) against the blessed benchmark.json at ``path``."""
    from referee.engine.compare import diffing, regress

    base = regress.from_benchmark(f"blessed {path.name}", regress.read_benchmark(path))
    try:
        return diffing.diff(base, regress.from_benchmark("this benchmark", doc))
    except diffing.Refused as exc:
        raise UsageError(f"--against {path}: {exc.fact}. If that is meant, bless a new baseline (commit the "
                         "benchmark.json of this aggregate); `referee diff --allow-different-rules "
                         "--allow-different-versions --allow-different-judges` shows the differences "
                         "anyway") from None


def regression(found: Diff, path: Path) -> Reason:
    regressed, unknown = found.regressions, found.cannot_tell
    if not regressed and not unknown:
        return Reason("regression", "ok", f"no eval of {found.primary} regressed against {path.name}"
                                          + _judge_unknown(found, path))
    said = []
    if regressed:
        said.append(f"{len(regressed)} eval(s) of {found.primary} regressed against {path.name}: "
                    + "; ".join(c.describe() for c in regressed))
    if unknown:  # errors in the blessed state: nothing shows these did not regress
        said.append(f"{len(unknown)} eval(s) of {found.primary} cannot be told not to have regressed against "
                    f"{path.name}: " + "; ".join(c.describe() for c in unknown))
    return Reason("regression", "breach", "; ".join(said) + _judge_unknown(found, path))


def _judge_unknown(found: Diff, path: Path) -> str:
    """Said in the reason itself, which benchmark.json keeps (the diff's notes are only
    printed): a blessed file of an older referee names no LLM grader, so a verdict that
    changed with the judge cannot be told from one that changed with the skill."""
    if found.base.judges is None:
        return f" ({path.name} records no LLM grader: judge unknown, a change of judge cannot be seen)"
    return ""
