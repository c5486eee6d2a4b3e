"""A grading.json's counts, recounted from its expectations.

grading.json states its counts (``summary``, ``gate``) beside the expectations
they count. A reader that took them as given could be told that 10 of 2
assertions passed (a 500 % pass rate, and a FAIL turned into a PASS). ``aggregate``
and ``report`` recount every figure from the expectations, with the rule that
wrote it (``engine.report.build``), and refuse a file whose stated counts
disagree: a file referee wrote always agrees with itself, so one that does not
was changed afterwards.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from referee.dsl.frozen import frozen
from referee.engine.report.build import exclusion, rate

OUTCOMES = ("pass", "fail", "error", "not_graded")


@frozen
class Item:
    """What the counts depend on in one expectation."""

    key: str
    outcome: str
    passed: Any  # as written: must be true exactly for "pass"
    precision: str
    gated: Any  # as written: true exactly when the gate counts the item, never for one it cannot


def disagreements(items: Sequence[Item], summary: Mapping[str, Any], gate: Mapping[str, Any]) -> list[str]:
    """Every way the stated counts and lists disagree with ``items``; empty when they agree."""
    found = _item_problems(items)
    if found:
        return found
    outcomes = Counter(item.outcome for item in items)
    passed, errors = outcomes["pass"], outcomes["error"]
    total = passed + outcomes["fail"] + errors
    counted = [item.key for item in items if item.gated]  # each checked against the gate's rule above
    gate_passed = sum(1 for item in items if item.gated and item.outcome == "pass")
    expected = {
        "summary.passed": passed, "summary.failed": total - passed, "summary.total": total,
        "summary.errors": errors, "summary.not_graded": outcomes["not_graded"],
        "summary.pass_rate": rate(passed, total),
        "gate.passed": gate_passed, "gate.total": len(counted),
        "gate.pass_rate": rate(gate_passed, len(counted)), "gate.counted": counted,
    }
    stated = {f"summary.{k}": summary.get(k) for k in ("passed", "failed", "total", "errors", "not_graded",
                                                        "pass_rate")}
    stated.update({f"gate.{k}": gate.get(k) for k in ("passed", "total", "pass_rate", "counted")})
    return [f"{name} is {_shown(stated[name])}, the expectations give {_shown(value)}"
            for name, value in expected.items() if not _same(stated[name], value)]


def _item_problems(items: Sequence[Item]) -> list[str]:
    found = []
    if len({item.key for item in items}) != len(items):
        repeated = sorted(key for key, n in Counter(item.key for item in items).items() if n > 1)
        found.append(f"expectation key {_shown(repeated[0])} is repeated")
    for item in items:
        if item.outcome not in OUTCOMES:
            found.append(f"expectation {_shown(item.key)} has outcome {_shown(item.outcome)}")
        elif item.passed is not (item.outcome == "pass"):
            found.append(f"expectation {_shown(item.key)} has passed {_shown(item.passed)} "
                         f"with outcome {item.outcome}")
        elif not isinstance(item.gated, bool) or (item.gated and exclusion(item.precision, item.outcome, True)):
            found.append(f"expectation {_shown(item.key)} has gated {_shown(item.gated)} "
                         f"with precision {_shown(item.precision)} and outcome {item.outcome}")
    return found[:3]


def _same(stated: Any, expected: Any) -> bool:
    """Equal, and of the same JSON type (``true`` is not 1, ``1.0`` is not a count)."""
    return type(stated) is type(expected) and stated == expected


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
