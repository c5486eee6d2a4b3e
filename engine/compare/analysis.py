"""analysis.json: why the winner won, in skill-creator's analyzer schema, from facts.

Unblinded: A is the primary, B the baseline (``referee.assignment``). The winner
is the side more evals voted for (``compare``'s votes); on a tie the primary is
taken as the winner for the strengths and the baseline as the loser. Every
sentence states something counted over runs and cites where it stands: an
assertion that passes on one side only (with the failing run's evidence), a
claim the record does not bear out, tool calls that ended in error, a run that
read what it must not, and the scripts, references and tools SKILL.md names
against those the transcripts used, by file and line. Suggestions are for the
skill under test (the primary), highest impact first.
"""

from __future__ import annotations

from typing import Sequence

from referee.dsl.frozen import frozen
from referee.engine.compare import facts, patterns
from referee.engine.compare.load import Graded, Loaded
from referee.engine.compare.rubric import Tag, tag_of
from referee.engine.compare.skilltext import SkillText
from referee.engine.decision import contamination

PRIORITY = {"high": 0, "medium": 1, "low": 2}


@frozen
class Sides:
    primary: str
    baseline: str
    primary_skill: str  # what names each side in the document
    baseline_skill: str


def document(loaded: Loaded, sides: Sides, summary: dict, text: SkillText, baseline_text: SkillText | None,
             tags: dict[str, Tag], skill_paths: Sequence[str]) -> dict:
    """The whole analysis.json."""
    primary, baseline = loaded.of(sides.primary), loaded.of(sides.baseline)
    votes = summary["sign_test"]["votes"]
    winner = "A" if votes["primary"] > votes["baseline"] else "B" if votes["baseline"] > votes["primary"] else "TIE"
    (w_name, w_runs), (l_name, l_runs) = ((sides.baseline, baseline), (sides.primary, primary)) if winner == "B" \
        else ((sides.primary, primary), (sides.baseline, baseline))
    texts = {sides.primary: (text, True), sides.baseline: (baseline_text or text, baseline_text is not None)}
    touched, unchecked = _contamination(loaded, sides, skill_paths)
    return {
        "comparison_summary": {
            "winner": winner,
            "winner_skill": sides.baseline_skill if winner == "B" else sides.primary_skill,
            "loser_skill": sides.primary_skill if winner == "B" else sides.baseline_skill,
            "comparator_reasoning": _reasoning(summary),
        },
        "winner_strengths": _strengths(w_name, w_runs, l_name, l_runs, *texts[w_name]),
        "loser_weaknesses": _weaknesses(l_name, l_runs, w_name, w_runs, touched, unchecked),
        "instruction_following": {
            "winner": facts.following(texts[w_name][0], w_runs, w_name, texts[w_name][1]),
            "loser": facts.following(texts[l_name][0], l_runs, l_name, texts[l_name][1]),
        },
        "improvement_suggestions": _suggestions(sides.primary, primary, baseline, text, tags),
        "transcript_insights": {
            "winner_execution_pattern": patterns.by_eval(w_runs, loaded.evals()),
            "loser_execution_pattern": patterns.by_eval(l_runs, loaded.evals()),
        },
        "referee": {
            "assignment": {"A": sides.primary, "B": sides.baseline},
            "votes": [{k: row[k] for k in ("eval_id", "eval_name", "pairs", "wins", "losses", "ties", "vote")}
                      for row in summary["evals"]],
            "sign_test": summary["sign_test"],
            "skill": text.path,
            "skill_coverage": facts.coverage(text, loaded),
            "contaminated_runs": [{"path": path, "evidence": [f.describe() for f in found]}
                                  for path, found in touched.items()],
            "unchecked_runs": [{"path": path, "reason": why} for path, why in unchecked.items()],
            "inputs": summary["inputs"],
        },
    }


def _reasoning(summary: dict) -> str:
    parts = [f"eval {row['eval_id']}: {row['wins']} won, {row['losses']} lost, {row['ties']} tied of "
             f"{row['pairs']} pairs" for row in summary["evals"]]
    return f"{summary['decision']} ({'; '.join(parts)})"


def _strengths(name: str, runs: list[Graded], other: str, other_runs: list[Graded], text: SkillText,
               own: bool) -> list[str]:
    mine, theirs = facts.tallies(runs), facts.tallies(other_runs)
    found = [f"\"{t.text}\" ({t.key}) passes in {facts.of_runs(t.passed, t.runs)} of {name}, "
             f"{theirs[k].passed} of {theirs[k].runs} of {other}"
             for k, t in mine.items() if facts.better(t, theirs.get(k))]
    if own:
        found += [f"{u.named.verb[0]} {u.named.name} as {text.path}:{u.named.line} says, in "
                  f"{facts.of_runs(u.used, u.runs)} (first {u.first})"
                  for u in facts.uses(text, runs) if u.used]
    return found


def _weaknesses(name: str, runs: list[Graded], other: str, other_runs: list[Graded], touched: dict,
                unchecked: dict[str, str]) -> list[str]:
    mine, theirs = facts.tallies(runs), facts.tallies(other_runs)
    failing = sorted((t for t in mine.values() if t.failing), key=lambda t: -len(t.failing))
    found = [f"\"{t.text}\" ({t.key}) {t.not_passing()} of {name}"
             + (f" (passes in {theirs[k].passed} of {theirs[k].runs} of {other})"
                if (k := (t.eval_id, t.key)) in theirs else "")
             + f": {facts.evidence(t.failing[0], t.key)}" for t in failing]
    errors = facts.errors(runs, name)
    found += ([errors] if errors else []) + facts.unverified(runs)
    found += [f"{path} read what it must not, so it is no clean {name} run: {items[0].describe()}"
              for path, items in touched.items() if any(r.path == path for r in runs)]
    found += [f"{path} could not be checked, so it is not shown as a clean {name} run: {why}"
              for path, why in unchecked.items() if any(r.path == path for r in runs)]
    return found


def _suggestions(primary: str, runs: list[Graded], baseline_runs: list[Graded], text: SkillText,
                 tags: dict[str, Tag]) -> list[dict]:
    mine, theirs = facts.tallies(runs), facts.tallies(baseline_runs)
    found = []
    for key, tally in mine.items():
        if not tally.failed:  # what could not be read says nothing the skill should say
            continue
        hurt = facts.better(theirs[key], tally) if key in theirs else False
        failed = next(run for run in tally.failing if (item := run.item(tally.key)) and item.outcome != "error")
        criterion = _criterion(failed, tally.key, tags)
        found.append({
            "priority": "high" if hurt or 2 * tally.failed > tally.runs else "medium",
            "category": "examples" if criterion == "formatting" else "instructions",
            "suggestion": f"Make {text.path} say what \"{tally.text}\" ({tally.key}) requires: it fails in "
                          f"{facts.of_runs(tally.failed, tally.runs)} of {primary}"
                          + (" and passes more often without it" if hurt else "")
                          + f" ({facts.evidence(failed, tally.key, 160)})",
            "expected_impact": _impact(runs, tally, primary),
        })
    errors = facts.errors(runs, primary)
    if errors:
        found.append({"priority": "medium", "category": "error_handling",
                      "suggestion": f"Say in {text.path} how to recover when a call fails: {errors}",
                      "expected_impact": "fewer failed calls and retries in the runs"})
    found += _unused(primary, runs, text)
    return sorted(found, key=lambda s: PRIORITY[s["priority"]])


def _criterion(run: Graded, key: str, tags: dict[str, Tag]) -> str:
    item = run.item(key)
    return tag_of(item, tags).criterion if item is not None else "correctness"


def _impact(runs: list[Graded], tally: facts.Tally, primary: str) -> str:
    """How much the mean gated pass rate would rise if the assertion passed in every run."""
    gated = [run for run in runs if run.gate[1]]
    if not tally.gated or not gated:
        return f"{tally.key} would pass in every run of {primary} (it is not counted in the gate)"
    gain = sum(1 / run.gate[1] for run in tally.failing if run.gate[1]) / len(gated)
    return f"up to +{gain * 100:.1f} points of {primary}'s gated pass rate, if {tally.key} passed in every run"


def _unused(primary: str, runs: list[Graded], text: SkillText) -> list[dict]:
    found = []
    for use in facts.uses(text, runs):
        named = use.named
        category = "tools" if named.kind in ("script", "tool") else "references"
        if not named.exists:
            found.append({"priority": "medium", "category": category,
                          "suggestion": f"{text.path}:{named.line} names {named.name}, which the skill folder "
                                        "lacks: add it or correct the path",
                          "expected_impact": "instructions that point at something the agent can use"})
        elif use.never:  # a run whose calls may be incomplete may have used it
            found.append({"priority": "low", "category": category,
                          "suggestion": f"{named.name} is named at {text.path}:{named.line} but no run of "
                                        f"{primary} {named.verb[1].removeprefix('never ')} it (0 of {use.runs} "
                                        "runs): say when to use it, or remove it",
                          "expected_impact": "a skill whose text matches what its runs do"})
    return found


def _contamination(loaded: Loaded, sides: Sides, skill_paths: Sequence[str]) -> tuple[dict, dict[str, str]]:
    """Run path -> findings, for runs that read the skill (other than the primary's)
    or another configuration's folder; and run path -> why, for runs found clean whose
    calls may be incomplete: a call not read may be the read, so such a run is not
    shown clean (as ``aggregate``'s ``find_contamination`` says)."""
    every = set(loaded.configurations)
    found, unchecked = {}, {}
    for run in loaded.runs:
        needles = contamination.needles(skill_paths if run.configuration != sides.primary else [],
                                        every - {run.configuration})
        # every call the rules see, as aggregate reads them: a subagent's read is the run's
        hits = contamination.run_findings(run.source, needles) if needles else ()
        if hits:
            found[run.path] = hits
        elif needles and (why := contamination.unchecked(run.source)) is not None:
            unchecked[run.path] = why
    return found, unchecked
