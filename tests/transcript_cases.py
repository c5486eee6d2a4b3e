"""What the tests of the in-memory transcript reader share: every import case (the real
sources and those written for the importers), the report path and origin they use, a
comparison that tells ``1.5`` from ``Decimal("1.5")``, and a value nested to a depth."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import yaml

from referee.engine.run.importers.record import Origin

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = [(FIXTURES / "real", case) for case in yaml.safe_load((FIXTURES / "real" / "imports.yaml").read_text())]
CASES += [(FIXTURES / "import", case) for case in yaml.safe_load((FIXTURES / "import" / "cases.yaml").read_text())]
REPORT = "run/outputs/transcript.md"
ORIGIN = Origin("chat.json", 1)


def same(a, b) -> bool:
    """Equal, and of the same type all the way down (``1.5 == Decimal("1.5")``); without
    recursion, for values nested as deep as the reader takes."""
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if type(x) is not type(y):
            return False
        if dataclasses.is_dataclass(x):
            pending += [(getattr(x, f.name), getattr(y, f.name)) for f in dataclasses.fields(x)]
        elif isinstance(x, (list, tuple)):
            if len(x) != len(y):
                return False
            pending += zip(x, y)
        elif isinstance(x, dict):
            if list(x) != list(y):
                return False
            pending += [(x[k], y[k]) for k in x]
        elif not (x == y or x != x and y != y):  # NaN: the same value
            return False
    return True


def nested(depth: int) -> list:
    """A list holding a list... ``depth`` deep."""
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value
