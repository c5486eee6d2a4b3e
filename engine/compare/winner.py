"""The winner of one pair, by a fixed procedure; never a coin flip.

1. A side with an errored or ungraded gated assertion cannot win (an assertion
   either side's gate counts); if both are so, the pair is a tie.
2. Then the rules' score (the rubric over the criteria rules decided) decides,
3. then the gated pass rate,
4. then, with ``--llm`` only, the model: the rubric with the criteria it scored
   the same way in both orders, then its preference when both orders agree.
5. Otherwise an honest ``TIE``.

If step 1 rules a side out and the later steps would name it, the pair is a tie.
The letters A and B are never read: a different blinding gives the same winner.
"""

from __future__ import annotations

from fractions import Fraction

from referee.dsl.frozen import frozen
from referee.engine.compare.load import Graded
from referee.engine.compare.rubric import Scores, shown

TIE = "TIE"


@frozen
class Side:
    """One side of a pair, as the decision sees it."""

    run: Graded
    rules: Scores  # the rubric from rules alone
    model: Scores | None = None  # the rubric with the model's consistent criteria added
    preferred: bool | None = None  # the model's consistent preference (None: no model or no agreement)


@frozen
class Outcome:
    winner: int | None  # 0, 1 or None (a tie)
    step: str  # disqualified, rules_score, gated_pass_rate, model_rubric, model_preference, tie
    why: str  # in terms of "{0}" and "{1}", filled with the sides' letters by the caller


def blockers(pair: tuple[Graded, Graded]) -> tuple[list[str], list[str]]:
    """Per side, the gated assertions (of either side's gate) without a pass or fail."""
    gated = {item.key for run in pair for item in run.items if item.gated}
    found: tuple[list[str], list[str]] = ([], [])
    for index, run in enumerate(pair):
        for key in sorted(gated):
            item = run.item(key)
            if item is None or item.outcome in ("error", "not_graded"):
                found[index].append(f"{key} {item.outcome if item else 'missing'}")
    return found


def decide(first: Side, second: Side) -> Outcome:
    """The pair's winner (index into ``(first, second)``), the step that decided, and why."""
    out = blockers((first.run, second.run))
    ranked = _ranked(first, second)
    if out[0] and out[1]:
        return Outcome(None, "disqualified", f"neither can win: {{0}} has {_listed(out[0])}, "
                                             f"{{1}} has {_listed(out[1])}")
    if ranked.winner is not None and out[ranked.winner]:
        side = "{0}" if ranked.winner == 0 else "{1}"
        return Outcome(None, "disqualified", f"{side} would win ({ranked.why}), but cannot: it has "
                                             f"{_listed(out[ranked.winner])}")
    if out[0] or out[1]:
        loser = 0 if out[0] else 1
        note = f"; {'{0}' if loser == 0 else '{1}'} could not have won: it has {_listed(out[loser])}"
        return Outcome(ranked.winner, ranked.step, ranked.why + note)
    return ranked


def _ranked(first: Side, second: Side) -> Outcome:
    a, b = first.rules.overall, second.rules.overall
    if a != b:
        return Outcome(0 if a > b else 1, "rules_score",
                       f"the rules' score is {shown(a)} for {{0}} against {shown(b)} for {{1}}"
                       + _differences(first.rules, second.rules))
    rates = [_gate_rate(side) for side in (first, second)]
    if rates[0] is not None and rates[1] is not None and rates[0] != rates[1]:
        return Outcome(0 if rates[0] > rates[1] else 1, "gated_pass_rate",
                       f"the rules' score is {shown(a)} on both sides; the gated pass rate is "
                       f"{_pct(rates[0])} for {{0}} against {_pct(rates[1])} for {{1}}")
    same = f"the rules' score is {shown(a)} on both sides and the gated pass rate " + (
        f"{_pct(rates[0])}" if rates[0] is not None else "is not defined (nothing counted)")
    return _by_model(first, second, same)


def _by_model(first: Side, second: Side, same: str) -> Outcome:
    if first.model is not None and second.model is not None:
        a, b = first.model.overall, second.model.overall
        if a != b:
            return Outcome(0 if a > b else 1, "model_rubric",
                           f"{same}; with the criteria the model scored alike in both orders, the "
                           f"rubric is {shown(a)} for {{0}} against {shown(b)} for {{1}}")
    if first.preferred is not None and first.preferred != second.preferred:
        return Outcome(0 if first.preferred else 1, "model_preference",
                       f"{same}; the model preferred {{{0 if first.preferred else 1}}} in both orders")
    return Outcome(None, "tie", f"{same}: nothing tells them apart")


def _differences(first: Scores, second: Scores) -> str:
    """The criteria scored differently, as " (correctness 5 against 2, ...)"."""
    found = []
    for mine in first.criteria:
        theirs = second.of(mine.criterion)
        if theirs is not None and theirs.score != mine.score:
            found.append(f"{mine.criterion} {mine.score} against {theirs.score}")
    return f" ({', '.join(found)})" if found else ""


def _gate_rate(side: Side) -> Fraction | None:
    passed, total = side.run.gate
    return Fraction(passed, total) if total else None


def _pct(value: Fraction | None) -> str:
    return "—" if value is None else f"{shown(value * 100, 1):g}%"


def _listed(keys: list[str]) -> str:
    shown_keys = ", ".join(keys[:3]) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
    return f"a gated assertion without a verdict ({shown_keys})"
