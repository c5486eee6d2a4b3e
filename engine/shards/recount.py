"""A manifest's critique facts, checked against the reports of the runs it lists.

The merge makes each eval's ``eval_feedback`` from the tallies the manifests hold,
and writes it into every report of the eval. A tally edited by hand (every
``passed_everywhere`` set to true, a configuration added, a count of runs changed)
would put a critique into the reports that no grade of these runs makes ("passed in
every run of every configuration" where one failed). What the reports hold is
counted again: each eval's runs and configurations, and, for every assertion a rule
decided (``method`` ``ground_truth``, whose outcome is the verdict the critique saw),
whether it passed in every run. An assertion the LLM grader judged is left out: its
report holds the grader's outcome, not the rule's the critique counted. The runs a
vacuous or idle pass names are runs the manifest lists of that eval, each named once,
as many as its count shows (up to ``SHOWN_RUNS``), each one a pass where a rule decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.facts.feedback import SHOWN_RUNS
from referee.engine.shards.verify import Shards

RULE = "ground_truth"


@dataclass
class Seen:
    """One eval's runs as one manifest's reports show them."""

    runs: int = 0
    configurations: set[str] = field(default_factory=set)
    passed: list[bool] = field(default_factory=list)  # per assertion: passed in every run a rule decided it
    decided: list[bool] = field(default_factory=list)  # per assertion: a rule decided it in every run
    lengths: set[int] = field(default_factory=set)
    wanted: set[str] = field(default_factory=set)  # the runs the manifest's suggestions name
    named: dict[str, list[Any]] = field(default_factory=dict)  # each of them -> its expectations

    def add(self, path: str, document: dict[str, Any]) -> None:
        items = document["expectations"]
        if path in self.wanted:  # a few runs of each eval: memory does not grow with the runs
            self.named[path] = items
        self.runs += 1
        self.configurations.add(document["run"]["configuration"])
        self.lengths.add(len(items))
        if len(self.passed) < len(items):
            grow = len(items) - len(self.passed)
            self.passed += [True] * grow
            self.decided += [self.runs == 1] * grow
        for position, item in enumerate(items):
            ruled = isinstance(item, dict) and item.get("method") == RULE
            self.decided[position] = self.decided[position] and ruled
            if ruled and item.get("outcome") != "pass":
                self.passed[position] = False


def seen_in(seen: dict[tuple[str, str], Seen], shards: Shards, name: str, key: str, path: str,
            document: dict[str, Any]) -> None:
    """Count the report of the run at ``path`` that manifest ``name`` lists, graded by eval ``key``."""
    if (name, key) not in seen:
        seen[name, key] = Seen(wanted=_named(shards, name, key))
    seen[name, key].add(path, document)


def _named(shards: Shards, name: str, key: str) -> set[str]:
    for found, m in shards.manifests.values():
        if found == name:
            return {path for part in m.feedback if part.key == key
                    for paths in (*part.tally.vacuous, *part.tally.idle) for path in paths}
    return set()


def disagreements(shards: Shards, seen: dict[tuple[str, str], Seen]) -> list[tuple[str, str]]:
    """Each manifest's tally field that the reports of its runs contradict."""
    problems = []
    for index in sorted(shards.manifests):
        name, m = shards.manifests[index]
        for part in m.feedback:
            found = seen.get((name, part.key), Seen())
            told = [f"feedback[{part.key}].tally.{field_}: {said}" for field_, said in _differences(part.tally, found)]
            if told:
                problems.append(("tally", f"{name}: the reports of the runs it lists say otherwise "
                                           f"({'; '.join(told[:3])}): the manifest was edited; grade its "
                                           "shard again"))
    return problems


def _differences(tally: Any, found: Seen) -> list[tuple[str, str]]:
    out = []
    if tally.runs != found.runs:
        out.append(("runs", f"{tally.runs}, where {found.runs} of its runs' reports are of this eval"))
    if set(tally.configurations) != found.configurations:  # by repr: a report edited may hold a number
        out.append(("configurations", f"{sorted(tally.configurations)}, where its runs' reports say "
                                      f"{sorted(found.configurations, key=repr)}"))
    if found.lengths and found.lengths != {tally.positions}:
        out.append(("positions", f"{tally.positions}, where its runs' reports hold "
                                 f"{', '.join(map(str, sorted(found.lengths)))} expectations"))
        return out
    for position, said in enumerate(tally.passed_everywhere):
        if position >= len(found.passed):
            break
        if found.decided[position] and said != found.passed[position]:
            out.append((f"passed_everywhere[{position}]", f"{str(said).lower()}, where its runs' reports say "
                                                          f"{str(found.passed[position]).lower()}"))
        elif said and not found.passed[position]:  # a rule's fail in some run: not passed everywhere
            out.append((f"passed_everywhere[{position}]", "true, where some run's report says it did not pass"))
    if tally.working > tally.runs:
        out.append(("working", f"{tally.working}, more than its {tally.runs} runs"))
    for kind in ("vacuous", "idle"):
        for position, (paths, count) in enumerate(zip(getattr(tally, kind), getattr(tally, f"{kind}_count"))):
            wrong = _named_wrong(paths, count, found, position)
            if wrong:
                out.append((f"{kind}[{position}]", wrong))
    return out


def _named_wrong(paths: list[str], count: int, found: Seen, position: int) -> str | None:
    """What is wrong with the runs a vacuous or idle pass names, if anything."""
    if count > found.runs or len(paths) != min(count, SHOWN_RUNS) or len(set(paths)) != len(paths):
        return f"names {len(paths)} of {count} runs, where the eval has {found.runs} here"
    for path in paths:
        items = found.named.get(path)
        if items is None:
            return f"names {path}, which is no run of this eval it lists"
        item = items[position] if position < len(items) else None
        if isinstance(item, dict) and item.get("method") == RULE and item.get("outcome") != "pass":
            return f"names {path}, whose report says it did not pass"
    return None
