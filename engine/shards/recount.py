"""A manifest's critique facts, checked against the reports of the runs it lists.

The merge makes each eval's ``eval_feedback`` from the tallies the manifests hold,
and writes it into every report of the eval. A tally edited by hand (every
``passed_everywhere`` set to true, a configuration added, a count of runs changed)
would put a critique into the reports that no grade of these runs makes ("passed in
every run of every configuration" where one failed). What the reports hold is
counted again: each eval's runs and configurations, and, for every assertion a rule
decided (``method`` ``ground_truth``, whose outcome is the verdict the critique saw),
whether it passed in every run. An assertion the LLM grader judged is left out: its
report holds the grader's outcome, not the rule's the critique counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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

    def add(self, document: dict[str, Any]) -> None:
        items = document["expectations"]
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


def seen_in(seen: dict[tuple[str, str], Seen], name: str, key: str, document: dict[str, Any]) -> None:
    """Count the report of a run manifest ``name`` lists, graded by eval ``key``."""
    seen.setdefault((name, key), Seen()).add(document)


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
    if sorted(tally.configurations) != sorted(found.configurations):
        out.append(("configurations", f"{sorted(tally.configurations)}, where its runs' reports say "
                                      f"{sorted(found.configurations)}"))
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
    return out
