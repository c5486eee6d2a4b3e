"""Blinding: which run is shown as A, and what must never be shown at all.

Which configuration appears as A is decided per pair by a seeded hash of the
eval id and the two runs' places in the workspace: the same pair with the same
seed is always shown the same way, on any machine and in any order, and a
different seed shuffles the sides without changing who wins (the decision never
reads the letters). Configuration names, the folders that only one side's runs
have, and the skill's name are replaced in every text a reader of the blinded
part (or a model) is shown.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Iterable

HIDDEN = "[hidden]"


def primary_is_a(seed: int, eval_id: str, primary_run: str, baseline_run: str) -> bool:
    """True when the pair shows its primary run as A."""
    material = "\0".join(("referee-blind", str(seed), eval_id, primary_run, baseline_run))
    # A folder name that is not UTF-8 holds a lone surrogate ("\udcff"), which strict
    # UTF-8 refuses; "surrogatepass" encodes it, and any other text as strict UTF-8 does.
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).digest()[0] % 2 == 0


@dataclass(frozen=True)
class Scrubber:
    """Replaces each secret (whole words, any case) with ``[hidden]``. The runs' texts
    recur in every pair they belong to, so each is scrubbed once."""

    pattern: re.Pattern | None
    done: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, secrets: Iterable[str]) -> Scrubber:
        words = sorted({s for s in secrets if s and s.strip()}, key=lambda s: (-len(s), s))
        if not words:
            return cls(None)
        body = "|".join(re.escape(w) for w in words)
        return cls(re.compile(rf"(?<![\w-])(?:{body})(?![\w-])", re.IGNORECASE))

    def __call__(self, text: str) -> str:
        if self.pattern is None:
            return text
        found = self.done.get(text)
        if found is None:
            found = self.done[text] = self.pattern.sub(HIDDEN, text)
        return found


def secrets(runs: Iterable[tuple[str, str]], skill_names: Iterable[str]) -> list[str]:
    """What tells a side apart, from ``(configuration, run path)`` pairs: the
    configuration names, the folder names that occur in one configuration's run
    paths only (its folder, whatever the harness called it), and the skill's names.
    Folder names every configuration shares (``iteration-1``, ``eval-3``, ``run-2``)
    say nothing about the side and stay."""
    folders: dict[str, set[str]] = {}
    for configuration, path in runs:
        folders.setdefault(configuration, set()).update(path.split("/"))
    found = set(folders) | set(skill_names)
    for configuration, mine in folders.items():
        others = set().union(*(f for c, f in folders.items() if c != configuration))
        found |= mine - others
    return sorted(found)
