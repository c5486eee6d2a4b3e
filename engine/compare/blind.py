"""Blinding: which run is shown as A, and what must never be shown at all.

Which configuration appears as A is decided per pair by a seeded hash of the
eval id and the two runs' places in the workspace: the same pair with the same
seed is always shown the same way, on any machine and in any order, and a
different seed shuffles the sides without changing who wins (the decision never
reads the letters). Configuration names, run folders and the skill's name are
replaced in every text a reader of the blinded part (or a model) is shown.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Iterable

HIDDEN = "[hidden]"


def primary_is_a(seed: int, eval_id: str, primary_run: str, baseline_run: str) -> bool:
    """True when the pair shows its primary run as A."""
    material = "\0".join(("referee-blind", str(seed), eval_id, primary_run, baseline_run))
    return hashlib.sha256(material.encode("utf-8")).digest()[0] % 2 == 0


@dataclass(frozen=True)
class Scrubber:
    """Replaces each secret (whole words, any case) with ``[hidden]``."""

    pattern: re.Pattern | None

    @classmethod
    def of(cls, secrets: Iterable[str]) -> Scrubber:
        words = sorted({s for s in secrets if s and s.strip()}, key=lambda s: (-len(s), s))
        if not words:
            return cls(None)
        body = "|".join(re.escape(w) for w in words)
        return cls(re.compile(rf"(?<![\w-])(?:{body})(?![\w-])", re.IGNORECASE))

    def __call__(self, text: str) -> str:
        return text if self.pattern is None else self.pattern.sub(HIDDEN, text)


def secrets(configurations: Iterable[str], run_paths: Iterable[str], skill_names: Iterable[str]) -> list[str]:
    """What identifies a side: configuration names, run folders (whole and by their
    configuration-level part), skill names."""
    found = set(configurations) | set(skill_names)
    for path in run_paths:
        found.add(path)
        parts = path.split("/")
        found.update("/".join(parts[i:]) for i in range(len(parts) - 1) if len(parts) - i >= 2)
    return sorted(found)
