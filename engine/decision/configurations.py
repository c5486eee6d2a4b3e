"""Which configuration is the primary (the skill under test) and which the baseline.

Named explicitly with ``--primary`` / ``--baseline``, or read from the names:
``with_X`` against ``without_X``, ``new_X`` against ``old_X``, anything against
a configuration called ``baseline``, and, when none of these pairs is there and
one of these is, ``with_X`` against ``old_X`` (skill-creator's baseline when
improving a skill) or ``no_X``, ``has_X`` against ``no_X``. Never from
alphabetical order: when the names say nothing, the user is asked. One configuration has no baseline and no delta
(one named as a baseline is not taken for the skill unless ``--primary`` names it);
a third or further configuration is compared with the baseline too.
"""

from __future__ import annotations

import re

from referee.dsl.frozen import frozen
from referee.engine.usage import UsageError

_PAIRS = ((re.compile(r"with(?=$|[-_])(.*)", re.I), "without"), (re.compile(r"new(?=$|[-_])(.*)", re.I), "old"))


@frozen
class Choice:
    primary: str
    baseline: str | None
    others: tuple[str, ...]  # further configurations, each compared with the baseline

    @property
    def ordered(self) -> tuple[str, ...]:
        """Primary, baseline, then the others: the order of every table."""
        head = (self.primary,) + ((self.baseline,) if self.baseline else ())
        return head + self.others


def choose(found: list[str], primary: str | None = None, baseline: str | None = None) -> Choice:
    """The roles of the configurations ``found``; raises UsageError when they are
    unknown or cannot be told apart, saying what to pass."""
    names = sorted(set(found))
    # Folder names, printed in one line of an error: a line break in one is written as
    # \n, or the rest of the name would start a line of its own (a CI workflow command).
    listed = ", ".join(name.replace("\n", "\\n") for name in names)
    for given, flag in ((primary, "--primary"), (baseline, "--baseline")):
        if given is not None and given not in names:
            raise UsageError(f"{flag} {given}: no such configuration among the graded runs ({listed})")
    if primary is not None and primary == baseline:
        raise UsageError("--primary and --baseline name the same configuration")
    if len(names) == 1:
        if baseline is not None:
            raise UsageError(f"--baseline {baseline}: it is the only configuration; there is nothing to compare")
        if primary is None and _baseline_named(names[0]):
            raise UsageError(f"the only configuration graded, {listed}, is named as a baseline: the skill under "
                             f"test has no graded run (see the warnings for a run folder skipped); to decide on "
                             f"it all the same, say --primary {listed}")
        return Choice(names[0], None, ())
    primary, baseline = _complete(names, primary, baseline)
    if primary is None or baseline is None:
        raise UsageError(f"cannot tell which configuration is the skill under test and which the baseline "
                         f"from their names ({listed}); say it with --primary NAME --baseline NAME")
    return Choice(primary, baseline, tuple(n for n in names if n not in (primary, baseline)))


def _complete(names: list[str], primary: str | None, baseline: str | None) -> tuple[str | None, str | None]:
    if primary is not None and baseline is not None:
        return primary, baseline
    if primary is not None:
        others = [n for n in names if n != primary]
        return primary, _partner(primary, names) or (others[0] if len(others) == 1 else None)
    if baseline is not None:
        others = [n for n in names if n != baseline]
        matches = [n for n in others if _partner(n, names) == baseline]
        return (matches[0] if len(matches) == 1 else others[0] if len(others) == 1 else None), baseline
    pairs = [(n, _partner(n, names)) for n in names if _partner(n, names)]
    if len(pairs) == 1:
        return pairs[0]
    if not pairs:
        # Baselines harnesses name otherwise: skill-creator improving a skill runs the
        # edited skill as with_X and the snapshot of its old version as old_X; others
        # run with_X or has_X against no_X. Taken only when one such pair is there.
        pairs = [(n, b) for n in names for b in _other_baselines(n, names)]
        if len(pairs) == 1:
            return pairs[0]
    if "baseline" in names and len(names) == 2:
        return next(n for n in names if n != "baseline"), "baseline"
    return None, None


def _baseline_named(name: str) -> bool:
    """Whether ``name`` is a baseline's (``without_X``, ``old_X``, ``no_X``, ``baseline``):
    alone, taken for the skill under test, the baseline was decided on as the release
    while the skill's runs were missing (a run folder skipped for having no outputs/)."""
    return name.casefold() == "baseline" or re.fullmatch(r"(without|old|no)(?=$|[-_]).*", name, re.I) is not None


def _partner(name: str, names: list[str]) -> str | None:
    """``without_X`` for ``with_X`` (``old_X`` for ``new_X``) when it is present."""
    for pattern, opposite in _PAIRS:
        found = pattern.fullmatch(name)
        if found is not None:
            prefix = name[: len(name) - len(found.group(1))]
            wanted = _same_case(prefix, opposite) + found.group(1)
            match = [n for n in names if n.casefold() == wanted.casefold()]
            if match:
                return match[0]
    if name != "baseline" and "baseline" in names:
        return "baseline"
    return None


# A primary's name (with_X, has_X) and the words of the baselines it may have besides
# the pairs of _PAIRS, when none of those is there.
_OTHER_BASELINES = ((re.compile(r"with(?=$|[-_])(.*)", re.I), ("old", "no")),
                    (re.compile(r"has(?=$|[-_])(.*)", re.I), ("no",)))


def _other_baselines(name: str, names: list[str]) -> list[str]:
    """The ``old_X`` and ``no_X`` of ``names`` for ``with_X`` (the ``no_X`` for ``has_X``)."""
    found: list[str] = []
    for pattern, words in _OTHER_BASELINES:
        match = pattern.fullmatch(name)
        if match is None:
            continue
        prefix = name[: len(name) - len(match.group(1))]
        for word in words:
            wanted = (_same_case(prefix, word) + match.group(1)).casefold()
            found += [n for n in names if n.casefold() == wanted]
    return found


def _same_case(original: str, word: str) -> str:
    return word.upper() if original.isupper() else word
