"""Regressions between two graded states: what got worse, judged per eval.

A state is a workspace (or one iteration folder of it) read through the reader
of graded runs, or a benchmark.json (``referee aggregate``'s, a blessed baseline
kept in the repository). Each eval of each configuration has runs that
succeeded (every gated assertion passed) or not. Its level is its majority
direction (more than half succeeded: pass; fewer: fail; half: split) and its
pass^k (the chance that k runs drawn all succeed, k the fewest runs either state
has, at most 5). A regression is a level that fell, in direction or in pass^k,
by more than one run could explain: if one more success in the new state would
restore the old level, one run flipped, and that is reported but is no
regression. Only the primary configuration's regressions count; the others'
changes are listed. States graded by different rules or referee versions are
refused unless allowed, since a change of the rules is not a change of the skill.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from referee.dsl.frozen import frozen
from referee.engine.compare.load import Loaded, load
from referee.engine.compare.output import read_object
from referee.engine.decision.stability import MAX_K, pass_hat_k
from referee.engine.run.workspace import natural_key
from referee.engine.usage import UsageError

RANK = {"fail": 0, "split": 1, "pass": 2}


@frozen
class RunOutcome:
    eval_id: str
    configuration: str
    succeeded: bool | None  # None: the gate counted nothing
    items: dict[str, tuple[str, str, str]]  # key -> (text, outcome, evidence)
    # Whether every gated assertion passed or errored: an ERROR is evidence referee
    # could not read, so such a run may have succeeded. None: the gate counted nothing.
    could_succeed: bool | None = None
    counted: frozenset[str] = frozenset()  # the keys its gate counted


@dataclass
class State:
    label: str
    runs: list[RunOutcome]
    versions: tuple[str, ...]
    rules: tuple[str, ...] | None  # None: not recorded (a benchmark.json of an older referee)
    primary: str | None
    names: dict[str, str | None] = field(default_factory=dict)  # eval id -> name
    left_out: tuple[str, ...] = ()  # runs found but not read, and why: the diff says so
    # (eval id, configuration) of each run graded (or to be) whose report cannot be read
    unread: tuple[tuple[str, str], ...] = ()
    # the input files the rules read (``provenance.inputs_of``); None: not recorded by every run
    inputs: tuple[str, ...] | None = ()
    # the LLM graders that gave its verdicts; None: not recorded (a benchmark.json of an older referee)
    judges: tuple[str, ...] | None = ()

    def group(self, eval_id: str, configuration: str) -> list[RunOutcome]:
        return [r for r in self.runs if r.eval_id == eval_id and r.configuration == configuration]

    def unread_of(self, eval_id: str, configuration: str) -> int:
        return self.unread.count((eval_id, configuration))


def read(path: Path, label: str, primary: str | None = None) -> State:
    """A state from a benchmark.json file or a folder of graded runs."""
    if path.is_file():
        return from_benchmark(label, read_benchmark(path))
    if path.is_dir():
        return from_loaded(label, load(path), primary)
    what = "not a regular file or a folder" if os.path.lexists(path) else "no such file or folder"
    raise UsageError(f"{label}: {what}: {path}")


def from_loaded(label: str, loaded: Loaded, primary: str | None) -> State:
    from referee.engine.decision.configurations import choose

    runs = [RunOutcome(r.eval_id, r.configuration, r.succeeded,
                       {i.key: (i.text, i.outcome, i.evidence) for i in r.items},
                       _could_succeed([i.outcome for i in r.items if i.gated]),
                       frozenset(i.key for i in r.items if i.gated)) for r in loaded.runs]
    choice = choose(loaded.configurations, primary, None) if primary is None else None
    chosen = primary or (choice.primary if choice else None)
    recorded = [r.inputs for r in loaded.runs]
    inputs = tuple(sorted({name for names in recorded for name in names or ()})) \
        if all(names is not None for names in recorded) else None
    return State(label, runs, tuple(sorted({r.version for r in loaded.runs})),
                 tuple(sorted({name for r in loaded.runs for name in r.rules})), chosen,
                 {r.eval_id: r.eval_name for r in loaded.runs}, tuple(loaded.warnings),
                 tuple((eval_id, config) for eval_id, config, _ in loaded.unread), inputs,
                 tuple(sorted({judge for r in loaded.runs for judge in r.judges})))


def from_benchmark(label: str, doc: dict) -> State:
    """A state from a benchmark.json document (as read, or as ``aggregate`` builds it)."""
    from referee.engine.decision.shape import BENCHMARK_SHAPE, shape_problem

    wrong = shape_problem(doc, BENCHMARK_SHAPE)
    if wrong is not None:
        raise UsageError(f"{label}: not a benchmark.json as referee aggregate writes it ({wrong}): "
                         "it was changed after aggregate wrote it; run referee aggregate again")
    try:
        meta = doc["metadata"]
        runs = [_benchmark_run(run, f"{label}: runs[{i}]") for i, run in enumerate(doc["runs"])]
        names = {str(r["eval_id"]): r.get("eval_name") for r in doc["runs"]}
        grader = meta.get("grader") or {}
        rules = _recorded_rules(label, meta)
        inputs = meta.get("inputs")
        unusable = doc.get("unusable_runs") or []
        left_out = tuple(f"{u['path']}: not counted: {u['reason']}" for u in unusable)
        unread = tuple((str(u["eval_id"]), str(u["configuration"])) for u in unusable)
        return State(label, runs, (str(grader.get("version")),) if grader.get("version") else (),
                     rules, meta.get("primary"), names, left_out,
                     unread, tuple(str(i) for i in inputs) if isinstance(inputs, list) else None,
                     _recorded_judges(label, meta))
    except (KeyError, TypeError, AttributeError) as exc:
        raise UsageError(f"{label}: not a benchmark.json as referee aggregate writes it (a field it "
                         f"needs is missing or of another type: {exc}); run referee aggregate again") from None


def _recorded_rules(label: str, meta: dict) -> tuple[str, ...] | None:
    """The rules ``metadata.rules`` names (``booking.rules@c80e3172``); None when it is
    not a list (a benchmark.json of an older referee: the rules are unknown). A list
    holding anything but names was not written by aggregate."""
    rules = meta.get("rules")
    if not isinstance(rules, list):
        return None
    if not all(isinstance(name, str) for name in rules):
        raise UsageError(f"{label}: metadata.rules is {json.dumps(rules)[:80]}, not a list of rules files "
                         "(name@digest): it was changed after referee aggregate wrote it")
    return tuple(rules)


def _recorded_judges(label: str, meta: dict) -> tuple[str, ...] | None:
    """The LLM graders ``metadata.judges`` names, sorted; None when it names none (a
    benchmark.json of an older referee: the judge is unknown). Any other value was not
    written by aggregate, and a judge read wrong could hide a change of judge."""
    if "judges" not in meta:
        return None
    judges = meta["judges"]
    if not isinstance(judges, list) or not all(isinstance(j, str) for j in judges):
        raise UsageError(f"{label}: metadata.judges is {json.dumps(judges)[:80]}, not a list of LLM graders "
                         "(backend:model): it was changed after referee aggregate wrote it")
    return tuple(sorted(judges))


def _benchmark_run(run: dict, where: str) -> RunOutcome:
    """One run of a benchmark.json, its success recounted from its expectations.

    ``result`` states counts beside the expectations they count, and a hand edit of
    one figure (a failing run's ``passed`` raised to its ``total``) would turn a
    regression into none; aggregate wrote both from the same verdicts, so a run
    whose stated counts are not the ones its expectations give is refused."""
    passed, total, errors = _recounted(run["expectations"], where)
    result = run["result"]
    stated = {"passed": passed, "failed": total - passed, "total": total, "gate_errors": errors}
    for name, value in stated.items():
        if type(result[name]) is not int or result[name] != value:
            raise UsageError(f"{where} (eval {run['eval_id']} {run['configuration']} run "
                             f"{run.get('run_number')}): result.{name} is {result[name]!r}, its expectations "
                             f"give {value}: it was changed after referee aggregate wrote it")
    items = {str(e["key"]): (str(e["text"]), e["outcome"], str(e.get("evidence", "")))
             for e in run["expectations"]}
    # benchmark.json counts the gate's errors among its failures (``gate_errors``).
    could = None if not total else passed + errors == total
    counted = frozenset(str(e["key"]) for e in run["expectations"] if e["counted"])
    return RunOutcome(str(run["eval_id"]), str(run["configuration"]), None if not total else passed == total, items,
                      could, counted)


def _recounted(expectations: list, where: str) -> tuple[int, int, int]:
    """(passed, total, errored) over the expectations the gate counts; UsageError for
    an expectation whose fields disagree with each other (as aggregate never writes)."""
    from referee.engine.decision.recount import OUTCOMES

    counted = []
    for i, e in enumerate(expectations):
        outcome, passed, gated = e["outcome"], e["passed"], e["counted"]
        if outcome not in OUTCOMES or passed is not (outcome == "pass") or not isinstance(gated, bool) \
                or (gated and outcome == "not_graded"):
            raise UsageError(f"{where}: expectations[{i}] has passed {passed!r} with outcome {outcome!r} and "
                             f"counted {gated!r}: it was changed after referee aggregate wrote it")
        if gated:
            counted.append(outcome)
    return counted.count("pass"), len(counted), counted.count("error")


def _could_succeed(gated: list[str]) -> bool | None:
    """Whether the gated outcomes would all be passes were their errors passes."""
    return None if not gated else all(outcome in ("pass", "error") for outcome in gated)


def read_benchmark(path: Path) -> dict:
    return read_object(path, "a benchmark.json")


# ---------------------------------------------------------------- comparing states

@frozen
class Level:
    successes: int
    runs: int

    def direction(self) -> str | None:
        if not self.runs:
            return None
        return "pass" if 2 * self.successes > self.runs else "fail" if 2 * self.successes < self.runs else "split"

    def hat(self, k: int) -> float:
        return pass_hat_k(self.runs, self.successes, k)

    def one_more(self) -> Level:
        return Level(min(self.successes + 1, self.runs), self.runs)

    def one_less(self) -> Level:
        return Level(max(self.successes - 1, 0), self.runs)


def below(new: Level, old: Level, k: int) -> bool:
    """``new`` is lower than ``old`` in direction or in pass^k."""
    return RANK[new.direction() or "fail"] < RANK[old.direction() or "fail"] or new.hat(k) < old.hat(k)


@frozen
class Change:
    eval_id: str
    configuration: str
    base: Level
    new: Level
    k: int
    verdict: str  # regression, cannot tell, improvement, one run, same
    unread: int = 0  # runs of the new state whose report cannot be read, in ``new`` as failed
    why: str = ""  # why it cannot tell, when not the old state's errors or unread runs

    def describe(self) -> str:
        def side(level: Level) -> str:
            if not level.runs:  # a state whose runs of the eval were all unread, when it cannot tell
                return "no run read"
            k = min(self.k, level.runs)  # a ``cannot tell`` is judged on more runs than were read
            return f"{level.successes}/{level.runs} runs succeeded ({level.direction()}, pass^{k} {level.hat(k):.2f})"
        if self.base.runs and not self.new.runs:
            return (f"eval {self.eval_id} {self.configuration}: {side(self.base)} -> no run counted (none "
                    f"found, read, or with a gated assertion): taken as {self.base.runs} failed runs")
        said = f"eval {self.eval_id} {self.configuration}: {side(self.base)} -> {side(self.new)}"
        if self.unread:
            said += f" ({self.unread} of them not read, counted as failed)"
        if self.verdict == "cannot tell":
            said += ": " + (self.why or "the old state's runs had gated assertions that errored, or reports "
                            "that cannot be read (evidence referee could not read); had they passed, this "
                            "would be a regression")
        return said


def change(eval_id: str, configuration: str, base: Level, new: Level) -> Change:
    if base.runs and not new.runs:
        # Nothing in the new state shows the eval did not get worse: judged as if each
        # of the runs the old state had failed, so a level one flip cannot explain regressed.
        judged = change(eval_id, configuration, base, Level(0, base.runs))
        return Change(eval_id, configuration, base, new, judged.k, judged.verdict)
    k = min(base.runs, new.runs, MAX_K)
    if k < 1:
        return Change(eval_id, configuration, base, new, 0, "same")
    if below(new, base, k):
        verdict = "one run" if not below(new.one_more(), base, k) else "regression"
    elif below(base, new, k):
        verdict = "one run" if not below(base, new.one_less(), k) else "improvement"
    else:
        verdict = "same"
    return Change(eval_id, configuration, base, new, k, verdict)


def level(runs: list[RunOutcome]) -> Level:
    counted = [r for r in runs if r.succeeded is not None]
    return Level(sum(bool(r.succeeded) for r in counted), len(counted))


def judged(eval_id: str, configuration: str, base: list[RunOutcome], new: list[RunOutcome],
           unread: tuple[int, int] = (0, 0)) -> Change:
    """The change of one eval and configuration; ``unread`` counts the runs of each
    state whose report cannot be read. Such a run of the new state may have failed:
    it is in its level as a failed run. An ERROR, or a run not read, in the old state
    lowers its level, yet it is evidence referee could not read, not a failure: were
    the old state's errored gated assertions passes (and its unread runs successes),
    the new state might be a regression. Then nothing shows it is not one, and the
    change is ``cannot tell``, never a quiet ``same``."""
    was, read = level(base), level(new)
    now = Level(read.successes, read.runs + unread[1])
    found = replace(change(eval_id, configuration, was, now), unread=unread[1])
    if found.verdict == "regression" or not now.runs:
        return found
    hopeful = Level(sum(bool(r.could_succeed) for r in base if r.succeeded is not None) + unread[0],
                    was.runs + unread[0])
    hoped = change(eval_id, configuration, hopeful, now)
    if hopeful != was and hoped.verdict == "regression":
        return replace(found, verdict="cannot tell", k=hoped.k)
    return _ungraded_now(found, base, new, was, now)


def _ungraded_now(found: Change, base: list[RunOutcome], new: list[RunOutcome], was: Level, now: Level) -> Change:
    """``found``, or ``cannot tell`` when the new state's runs left ungraded an assertion
    the old state's gate counted (graded then, not now: no --llm) and the change would
    be a regression had it failed in them: the new state's level rests on less than the
    old one's, and nothing shows the assertion would not have failed."""
    counted = frozenset().union(*(r.counted for r in base))
    left = [r for r in new if r.succeeded and any(r.items.get(k, ("", ""))[1] == "not_graded" for k in counted)]
    if not left:
        return found
    worst = change(found.eval_id, found.configuration, was, Level(now.successes - len(left), now.runs))
    if worst.verdict != "regression":
        return found
    keys = sorted({k for r in left for k in counted if r.items.get(k, ("", ""))[1] == "not_graded"}, key=natural_key)
    return replace(found, verdict="cannot tell", k=worst.k,
                   why=f"{', '.join(keys)} counted in the old state's gate, not graded in {len(left)} of the new "
                       "state's runs that succeeded; had it failed there, this would be a regression")


def groups(base: State, new: State) -> list[tuple[str, str]]:
    """The (eval, configuration) pairs both states have runs of."""
    both = {(r.eval_id, r.configuration) for r in base.runs} & {(r.eval_id, r.configuration) for r in new.runs}
    return sorted(both, key=lambda g: (natural_key(g[0]), g[1]))


def judged_groups(base: State, new: State) -> list[tuple[str, str]]:
    """The pairs both states have, and those only the old state has: an eval that has
    no run in the new state (not run, or its reports unreadable) may have got worse;
    one whose old runs were all unread may have been better than the new one."""
    found = {(r.eval_id, r.configuration) for r in base.runs} | set(base.unread) | set(groups(base, new))
    return sorted(found, key=lambda g: (natural_key(g[0]), g[1]))
