"""Every primary run against every baseline run of the same eval, blinded and decided.

No result depends on an arbitrary pairing or on the order runs were found: each
run of one side meets each run of the other. Pairs are numbered in the one order
of runs (eval, then the primary's run, then the baseline's), which names their
files, ``comparison-1.json`` onwards.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Mapping, Sequence

from referee.dsl.frozen import frozen
from referee.engine.compare.blind import primary_is_a
from referee.engine.compare.holistic import Holistic, Judgement, reconcile
from referee.engine.compare.load import Graded, Item, Loaded
from referee.engine.compare.rubric import CRITERIA, Scores, Tag, scores
from referee.engine.compare.winner import Outcome, Side, decide


@frozen
class Pair:
    number: int
    eval_id: str
    primary: Graded
    baseline: Graded
    primary_is_a: bool

    @property
    def shown(self) -> tuple[Graded, Graded]:
        """(A, B)."""
        return (self.primary, self.baseline) if self.primary_is_a else (self.baseline, self.primary)

    def configuration(self, index: int) -> str:
        return self.shown[index].configuration


@frozen
class Decided:
    pair: Pair
    sides: tuple[Side, Side]  # (A, B)
    outcome: Outcome
    judgement: Judgement | None = None

    @property
    def primary_won(self) -> bool | None:
        """True, False, or None for a tie."""
        if self.outcome.winner is None:
            return None
        return (self.outcome.winner == 0) == self.pair.primary_is_a


def pairs(loaded: Loaded, primary: str, baseline: str, seed: int) -> list[Pair]:
    """All pairs of the two configurations, eval by eval."""
    found: list[Pair] = []
    for eval_id, _ in loaded.evals():
        mine = [r for r in loaded.runs if r.eval_id == eval_id]
        for p in (r for r in mine if r.configuration == primary):
            for b in (r for r in mine if r.configuration == baseline):
                found.append(Pair(len(found) + 1, eval_id, p, b, primary_is_a(seed, eval_id, p.path, b.path)))
    return found


def decide_all(found: Sequence[Pair], tags: Mapping[str, Tag], holistic: Holistic | None = None,
               task: Callable[[Pair], str] | None = None, scrub: Callable[[str], str] = str,
               jobs: int = 1) -> list[Decided]:
    """Each pair decided, in order; with ``holistic`` each is read in both orders
    (``jobs`` pairs at a time: the answers are the same in any order of asking)."""
    if holistic is None:
        return [_decided(pair, tags, None) for pair in found]
    ask = task or (lambda pair: "")

    def judged(pair: Pair) -> Decided:
        return _decided(pair, tags, _judge(holistic, pair, ask(pair), tags, scrub))

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(judged, found))


def _judge(holistic: Holistic, pair: Pair, task: str, tags: Mapping[str, Tag],
           scrub: Callable[[str], str]) -> Judgement:
    a, b = pair.shown
    decided = [scores(items, tags) for items in scored(pair.shown)]
    open_criteria = [c for c in CRITERIA if all(s.of(c) is None for s in decided)]
    straight = holistic.read(task, a.source, b.source, open_criteria, scrub)
    swapped = holistic.read(task, b.source, a.source, open_criteria, scrub)
    return reconcile(straight, swapped)


def one_sided(runs: tuple[Graded, Graded]) -> tuple[list[str], list[str]]:
    """Per side, the assertions it graded (a pass or a fail) and the other did not (an
    error, no verdict, not there): a baseline graded without ``--llm`` against a primary
    judged by a model. Scored on one side, they would weigh what each side was asked,
    not how it did."""
    graded = [{item.key for item in run.items if item.graded} for run in runs]
    return sorted(graded[0] - graded[1]), sorted(graded[1] - graded[0])


def scored(runs: tuple[Graded, Graded]) -> tuple[list[Item], list[Item]]:
    """Each side's items the rubric scores: those both sides graded."""
    left_out = set().union(*one_sided(runs))
    mine, theirs = ([item for item in run.items if item.key not in left_out] for run in runs)
    return mine, theirs


def _decided(pair: Pair, tags: Mapping[str, Tag], judgement: Judgement | None) -> Decided:
    items = scored(pair.shown)
    sides = tuple(_side(run, items[index], index, tags, judgement) for index, run in enumerate(pair.shown))
    return Decided(pair, (sides[0], sides[1]), decide(sides[0], sides[1]), judgement)


def _side(run: Graded, items: Sequence[Item], index: int, tags: Mapping[str, Tag],
          judgement: Judgement | None) -> Side:
    rules = scores(items, tags)
    if judgement is None:
        return Side(run, rules)
    extra = {name: pair[index] for name, pair in judgement.criteria.items()}
    model: Scores = scores(items, tags, extra)
    preferred = None if judgement.preferred is None else judgement.preferred == index
    return Side(run, rules, model, preferred)
