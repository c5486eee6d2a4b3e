"""comparison-N.json and summary.json.

A comparison keeps skill-creator's comparator schema (``winner``, ``reasoning``,
``rubric``, ``output_quality``, ``expectation_results`` for A and B, as
docs/compare.md restates it) and adds ``referee``: the blinding
(``assignment``, the only place that says which configuration is A), where each
score came from, the gate, the evidence, the model's two readings. Outside
``referee.assignment`` no text names a configuration, a run folder or the skill:
every text taken from a run goes through the scrubber first.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Callable, Mapping, Sequence

from referee.engine.compare.holistic import Judgement, Point, Reading
from referee.engine.compare.load import Graded
from referee.engine.compare.pairs import Decided, one_sided
from referee.engine.compare.rubric import DIMENSIONS, Scores, Tag, shown, tag_of
from referee.engine.compare.signtest import SignTest, vote
from referee.engine.compare.winner import blockers

LETTERS = ("A", "B")
MAX_EVIDENCE = 240


def file_name(number: int) -> str:
    return f"comparison-{number}.json"


def comparison(decided: Decided, tags: Mapping[str, Tag], seed: int, scrub: Callable[[str], str]) -> dict:
    """One pair's document."""
    runs = decided.pair.shown
    out = decided.outcome
    shown_scores = [side.model or side.rules for side in decided.sides]
    doc = {
        "winner": "TIE" if out.winner is None else LETTERS[out.winner],
        "reasoning": _reasoning(decided),
        "rubric": {letter: _rubric(s) for letter, s in zip(LETTERS, shown_scores)},
        "output_quality": {letter: _quality(i, decided, shown_scores[i], scrub) for i, letter in enumerate(LETTERS)},
    }
    results = {letter: _expectations(run, scrub) for letter, run in zip(LETTERS, runs)}
    if any(r["total"] for r in results.values()):
        doc["expectation_results"] = results
    doc["referee"] = _referee(decided, tags, seed, scrub)
    return doc


def _reasoning(decided: Decided) -> str:
    out = decided.outcome
    why = out.why.format(*LETTERS)
    verdict = "a tie" if out.winner is None else f"{LETTERS[out.winner]} wins"
    alone = [f"{', '.join(keys)} graded in {letter} alone"
             for letter, keys in zip(LETTERS, one_sided(decided.pair.shown)) if keys]
    left_out = f" Left out of the rules' score: {'; '.join(alone)}." if alone else ""
    return f"{why[:1].upper()}{why[1:]}: {verdict}.{left_out}"


def _rubric(scores: Scores) -> dict:
    found = {c.criterion: c.score for c in scores.criteria}
    return {
        "content": {c: found[c] for c in DIMENSIONS["content"] if c in found},
        "structure": {c: found[c] for c in DIMENSIONS["structure"] if c in found},
        "content_score": shown(scores.content), "structure_score": shown(scores.structure),
        "overall_score": shown(scores.overall),
    }


def _quality(index: int, decided: Decided, scores: Scores, scrub: Callable[[str], str]) -> dict:
    mine, other = decided.pair.shown[index], decided.pair.shown[1 - index]
    strengths = [scrub(i.text) for i in mine.items if i.passed and not _passes(other, i.key)]
    weaknesses = [f"{scrub(i.text)} ({i.outcome}: {_short(scrub(i.evidence))})"
                  for i in mine.items if i.outcome in ("fail", "error")]
    judgement = decided.judgement
    if judgement is not None:
        strengths += [_point(p, scrub) for p in judgement.strengths[index]]
        weaknesses += [_point(p, scrub) for p in judgement.weaknesses[index]]
    return {"score": int(shown(scores.overall, 0)), "strengths": strengths, "weaknesses": weaknesses}


def _passes(run: Graded, key: str) -> bool:
    item = run.item(key)
    return item is not None and item.passed


def _point(point: Point, scrub: Callable[[str], str]) -> str:
    return scrub(f"{point.text} (\"{_short(point.quote, 120)}\", {point.file}:{point.line})")


def _expectations(run: Graded, scrub: Callable[[str], str]) -> dict:
    graded = [i for i in run.items if i.graded]
    passed = sum(i.passed for i in graded)
    return {"passed": passed, "total": len(graded),
            "pass_rate": round(passed / len(graded), 4) if graded else 0.0,
            "details": [{"text": scrub(i.text), "passed": i.passed} for i in graded]}


def _referee(decided: Decided, tags: Mapping[str, Tag], seed: int, scrub: Callable[[str], str]) -> dict:
    pair, runs = decided.pair, decided.pair.shown
    blocked = blockers(runs)
    return {
        "eval_id": pair.eval_id, "eval_name": runs[0].eval_name, "pair": pair.number, "seed": seed,
        "assignment": {letter: run.configuration for letter, run in zip(LETTERS, runs)},
        "runs": {letter: run.run_number for letter, run in zip(LETTERS, runs)},
        "decided_by": decided.outcome.step,
        "rules_score": {letter: shown(side.rules.overall) for letter, side in zip(LETTERS, decided.sides)},
        "gate": {letter: {"passed": run.gate[0], "total": run.gate[1], "without_verdict": blocked[i]}
                 for i, (letter, run) in enumerate(zip(LETTERS, runs))},
        "criteria": {item.key: {"criterion": (tag := tag_of(item, tags)).criterion, "source": tag.source}
                     for item in runs[0].items + runs[1].items},
        "scores": {letter: _sources(side.model or side.rules) for letter, side in zip(LETTERS, decided.sides)},
        "not_graded": {letter: [i.key for i in run.items if not i.graded] for letter, run in zip(LETTERS, runs)},
        "graded_on_one_side": dict(zip(LETTERS, one_sided(runs))),
        "evidence": {letter: {i.key: _short(scrub(i.evidence)) for i in run.items if i.graded}
                     for letter, run in zip(LETTERS, runs)},
        "model": None if decided.judgement is None else _model(decided.judgement, scrub),
    }


def _sources(scores: Scores) -> dict:
    return {"criteria": {c.criterion: {"score": c.score, "passed": c.passed, "graded": c.graded,
                                       "assertions": list(c.keys), "source": c.source} for c in scores.criteria},
            "dimensions": scores.source}


def _model(judgement: Judgement, scrub: Callable[[str], str]) -> dict:
    return {
        "preferred": None if judgement.preferred is None else LETTERS[judgement.preferred],
        "flipped": judgement.flipped,
        "criteria": {name: dict(zip(LETTERS, pair)) for name, pair in judgement.criteria.items()},
        "unsettled": list(judgement.unsettled),
        "readings": [_reading(reading, order, scrub) for reading, order in zip(judgement.readings, LETTERS)],
    }


def _reading(reading: Reading, first: str, scrub: Callable[[str], str]) -> dict:
    shown_first = (LETTERS if first == "A" else LETTERS[::-1])
    preference = None if reading.preference is None else shown_first[reading.preference]
    return {"shown_first": first, "preferred": preference, "reasoning": scrub(_short(reading.reasoning, 600)),
            "rejected": [scrub(r) for r in reading.rejected], "error": reading.error}


def _short(text: str, limit: int = MAX_EVIDENCE) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# ---------------------------------------------------------------- the summary

def summary(decided: Sequence[Decided], primary: str, baseline: str, seed: int,
            evals: Sequence[tuple[str, str | None]], inputs: dict, model: dict | None,
            unread: Callable[[str], list[str]] = lambda eval_id: [],
            one_side: Callable[[str], list[str]] = lambda eval_id: []) -> dict:
    """summary.json: one vote per eval, the sign test, the model's flip rate. ``unread``
    gives an eval's runs of either side whose grading.json cannot be read; ``one_side``
    the side whose runs an eval has when the other has none: it has no pair and no vote,
    and ``left_out_evals`` names it."""
    rows = [_eval_row(eval_id, name, [d for d in decided if d.pair.eval_id == eval_id], unread(eval_id))
            for eval_id, name in evals]
    # An eval with no pair is no eval of the comparison, unless runs of it cannot be
    # read: those might have made its pairs, and its vote cannot be told.
    left_out = [{"eval_id": row["eval_id"], "eval_name": row["eval_name"], "runs_of": side}
                for row in rows if not row["pairs"] and "unread_runs" not in row
                for side in one_side(row["eval_id"])]
    rows = [row for row in rows if row["pairs"] or "unread_runs" in row]
    votes = Counter(row["vote"] for row in rows)
    test = SignTest(votes["primary"], votes["baseline"], votes["tie"],
                    unread=sum(1 for row in rows if "unread_runs" in row))
    return {"primary": primary, "baseline": baseline, "seed": seed, "pairs": len(decided),
            "evals": rows, "sign_test": test.as_dict(), "decision": test.describe(primary, baseline),
            "flip_rate": _flip_rate(decided), "model": model, "inputs": inputs, "left_out_evals": left_out}


def _eval_row(eval_id: str, name: str | None, mine: list[Decided], unread: list[str]) -> dict:
    wins = sum(d.primary_won is True for d in mine)
    losses = sum(d.primary_won is False for d in mine)
    # A run that cannot be read may have won or lost every pair it would be in: the
    # pairs that could be decided do not settle the eval, which votes neither way.
    voted = 0 if unread else vote(wins, losses)
    row = {"eval_id": eval_id, "eval_name": name, "pairs": len(mine), "wins": wins, "losses": losses,
           "ties": len(mine) - wins - losses, "vote": {1: "primary", -1: "baseline", 0: "tie"}[voted],
           "decided_by": dict(sorted(Counter(d.outcome.step for d in mine).items())),
           "magnitude": _magnitude(mine), "comparisons": [file_name(d.pair.number) for d in mine]}
    if unread:
        row["unread_runs"] = unread
    alone = _graded_alone(mine)
    if alone:
        row["graded_on_one_side"] = alone
    return row


def _graded_alone(mine: list[Decided]) -> dict[str, list[str]]:
    """Per configuration, the assertions it graded in some pair and the other side did
    not: left out of those pairs' rules' scores."""
    found: dict[str, set[str]] = {}
    for d in mine:
        for run, keys in zip(d.pair.shown, one_sided(d.pair.shown)):
            found.setdefault(run.configuration, set()).update(keys)
    return {config: sorted(keys) for config, keys in sorted(found.items()) if keys}


def _magnitude(mine: list[Decided]) -> dict:
    """Mean differences, primary minus baseline: reported, never deciding."""
    if not mine:
        return {"rules_score": None, "gated_pass_rate": None}
    scores, rates = [], []
    for d in mine:
        p, b = (0, 1) if d.pair.primary_is_a else (1, 0)
        scores.append(d.sides[p].rules.overall - d.sides[b].rules.overall)
        gates = [d.pair.primary.gate, d.pair.baseline.gate]
        if gates[0][1] and gates[1][1]:
            rates.append(Fraction(*gates[0]) - Fraction(*gates[1]))
    return {"rules_score": round(float(sum(scores) / len(scores)), 2),
            "gated_pass_rate": round(float(sum(rates) / len(rates)), 4) if rates else None}


def _flip_rate(decided: Sequence[Decided]) -> dict | None:
    judged = [d.judgement for d in decided if d.judgement is not None]
    if not judged:
        return None
    usable = [j for j in judged if j.error is None]
    flipped = sum(j.flipped for j in usable)
    return {"pairs": len(usable), "flipped": flipped, "unusable": len(judged) - len(usable),
            "rate": round(flipped / len(usable), 4) if usable else None}
