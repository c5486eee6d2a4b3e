"""The diff of two states: refusals, the evals' level changes, the assertions that flipped.

An assertion flipped when its majority outcome in one configuration of one eval
changed between the states (it passed in more than half of the runs where it was
graded, and now in fewer than half, or the reverse); each flip quotes a run's
evidence from both states.
"""

from __future__ import annotations

from referee.dsl.frozen import frozen
from referee.engine.compare.regress import Change, RunOutcome, State, groups, judged, judged_groups
from referee.engine.run.workspace import natural_key
from referee.engine.usage import UsageError


class Refused(UsageError):
    """The states cannot be compared as they are; ``fact`` says why, without advice."""

    def __init__(self, fact: str, advice: str) -> None:
        super().__init__(f"{fact}; {advice}")
        self.fact = fact


NOW = {"pass": "passes", "fail": "fails", "error": "errors"}
WAS = {"pass": "passed", "fail": "failed", "error": "errored"}


@frozen
class Flip:
    eval_id: str
    configuration: str
    key: str
    text: str
    was: str  # "passed", "failed" or "errored" (could not be read)
    now: str  # "passes", "fails" or "errors"
    base: tuple[int, int, str, int]  # passed, graded, a run's evidence, errored
    new: tuple[int, int, str, int]

    def as_dict(self) -> dict:
        return {"eval_id": self.eval_id, "configuration": self.configuration, "key": self.key, "text": self.text,
                "was": self.was, "now": self.now, "base": _side_dict(self.base), "new": _side_dict(self.new)}

    def describe(self) -> str:
        """What changed, an ERROR said as evidence that could not be read, never as a failure."""
        if self.now == "errors":
            return f"now could not be read ({self.new[3]} of {self.new[1]} errored), {self.was} before"
        if self.was == "errored":
            return f"now {self.now}, could not be read before ({self.base[3]} of {self.base[1]} errored)"
        return f"now {self.now}"


def _side_dict(side: tuple[int, int, str, int]) -> dict:
    return {"passed": side[0], "graded": side[1], "errors": side[3], "evidence": side[2]}


@frozen
class Diff:
    base: State
    new: State
    primary: str | None
    changes: tuple[Change, ...]
    flips: tuple[Flip, ...]
    notes: tuple[str, ...]

    @property
    def regressions(self) -> list[Change]:
        return [c for c in self.changes if c.verdict == "regression" and c.configuration == self.primary]

    @property
    def cannot_tell(self) -> list[Change]:
        """The primary's evals that errors in the old state keep from being shown not
        to have regressed (``regress.judged``): no success either."""
        return [c for c in self.changes if c.verdict == "cannot tell" and c.configuration == self.primary]

    def as_dict(self) -> dict:
        return {"base": self.base.label, "new": self.new.label, "primary": self.primary,
                "regressions": [c.describe() for c in self.regressions],
                "cannot_tell": [c.describe() for c in self.cannot_tell],
                "changes": [{"eval_id": c.eval_id, "configuration": c.configuration, "verdict": c.verdict,
                             "base": {"succeeded": c.base.successes, "runs": c.base.runs},
                             "new": {"succeeded": c.new.successes, "runs": c.new.runs}, "k": c.k,
                             "text": c.describe()} for c in self.changes if c.verdict != "same"],
                "flipped_assertions": [f.as_dict() for f in self.flips], "notes": list(self.notes)}


def diff(base: State, new: State, *, allow_rules: bool = False, allow_versions: bool = False,
         allow_judges: bool = False) -> Diff:
    """Compare ``new`` with ``base``; UsageError when they cannot be compared."""
    notes = _comparable(base, new, allow_rules, allow_versions) + _judges_comparable(base, new, allow_judges)
    # A run that could not be read is in its level as a failure (NEW) or a possible success (BASE).
    notes += [f"{state.label}: {line}" for state in (base, new) for line in state.left_out]
    primary = new.primary or base.primary
    if base.primary and new.primary and base.primary != new.primary:
        raise UsageError(f"the primary configuration differs ({base.label}: {base.primary}, {new.label}: "
                         f"{new.primary}); name it with --primary")
    _has_runs_of(primary, base, new)
    found = groups(base, new)
    if not found:
        raise UsageError(f"{base.label} and {new.label} have no eval and configuration in common")
    changes = tuple(judged(e, c, base.group(e, c), new.group(e, c), (base.unread_of(e, c), new.unread_of(e, c)))
                    for e, c in judged_groups(base, new))
    notes += [f"{new.label}: eval {c.eval_id} {c.configuration} has no run counted ({base.label} has "
              f"{c.base.runs}): judged as if they failed" for c in changes if c.base.runs and not c.new.runs]
    flips = tuple(f for e, c in found for f in _flips(e, c, base.group(e, c), new.group(e, c)))
    return Diff(base, new, primary, changes, flips, tuple(notes))


def _has_runs_of(primary: str | None, base: State, new: State) -> None:
    """UsageError when neither state has a run of ``primary`` (read or not): only the
    primary's regressions count, and none of its evals would be compared, so the diff
    could not tell that it did not regress (a misspelt ``--primary``)."""
    if primary is None:
        return
    found = {r.configuration for state in (base, new) for r in state.runs}
    if primary in found or any(primary == config for state in (base, new) for _, config in state.unread):
        return
    shown = ", ".join(sorted(found)).replace("\n", "\\n") or "none"
    raise UsageError(f"--primary {primary}: no run of that configuration in {base.label} or {new.label} "
                     f"(they have {shown}); name the configuration to judge")


def _comparable(base: State, new: State, allow_rules: bool, allow_versions: bool) -> list[str]:
    notes = []
    if base.versions != new.versions:
        said = (f"graded by different referee versions ({base.label}: {', '.join(base.versions) or 'unknown'}; "
                f"{new.label}: {', '.join(new.versions) or 'unknown'})")
        if not allow_versions:
            raise Refused(said, "grade both with one version, or give --allow-different-versions")
        notes.append(f"{said}, compared anyway (--allow-different-versions)")
    differ = _rules_differ(base, new)
    if differ:
        if not allow_rules:
            raise Refused(differ, "grade both with the same rules, or give --allow-different-rules")
        notes.append(f"{differ}, compared anyway (--allow-different-rules)")
    elif base.rules is None or new.rules is None:
        unknown = base.label if base.rules is None else new.label
        notes.append(f"{unknown} records no rules (an older benchmark.json): the rules were compared by "
                     "the assertions' keys and texts only")
    return notes + _inputs_comparable(base, new, allow_rules)


def _judges_comparable(base: State, new: State, allow_judges: bool) -> list[str]:
    """The LLM grader that judged the semantic assertions graded the runs too: a verdict
    a stricter model gives is no regression of the skill. States judged by different
    graders are refused unless told; one that no grader judged, or that does not record
    which (a benchmark.json of an older referee, without ``metadata.judges``), is said."""
    if base.judges == new.judges:
        return []
    named = {state.label: ("unknown" if state.judges is None else ", ".join(state.judges) or "none")
             for state in (base, new)}
    said = f"judged by different LLM graders ({base.label}: {named[base.label]}; {new.label}: {named[new.label]})"
    if base.judges is None or new.judges is None:
        unknown = base.label if base.judges is None else new.label
        return [f"{unknown} records no LLM grader (a benchmark.json of an older referee): judge unknown, "
                "a change of grader cannot be seen"]
    if not base.judges or not new.judges:
        return [f"{said}: the semantic assertions one did not judge are not graded there, and not compared"]
    if not allow_judges:
        raise Refused(said, "judge both with one grader, or give --allow-different-judges")
    return [f"{said}, compared anyway (--allow-different-judges)"]


def _inputs_comparable(base: State, new: State, allow_rules: bool) -> list[str]:
    """The input files the rules read (``input "expected.txt"``) are part of what graded
    the runs: states graded with other files are refused as other rules are, and a state
    that does not record them is said, since a change of them could not be seen."""
    if base.inputs is None or new.inputs is None:
        unknown = " and ".join(state.label for state in (base, new) if state.inputs is None)
        return [f"{unknown} records no digests of the input files the rules read (graded by an older "
                "referee): a change of those files cannot be seen"]
    if base.inputs == new.inputs:
        return []
    said = (f"graded with different input files ({base.label}: {', '.join(base.inputs) or 'none'}; "
            f"{new.label}: {', '.join(new.inputs) or 'none'})")
    if not allow_rules:
        raise Refused(said, "grade both with the same input files, or give --allow-different-rules")
    return [f"{said}, compared anyway (--allow-different-rules)"]


def _rules_differ(base: State, new: State) -> str | None:
    if base.rules is not None and new.rules is not None and base.rules != new.rules:
        return (f"graded by different rules ({base.label}: {', '.join(base.rules) or 'none'}; "
                f"{new.label}: {', '.join(new.rules) or 'none'})")
    # The assertions' texts too, even when the rules files' digests agree: a semantic
    # assertion's sentence (and a plain sentence's) comes from evals.json, which no
    # digest records, and it is what the LLM grader judged.
    texts = [{(r.eval_id, k): v[0] for r in state.runs for k, v in r.items.items()} for state in (base, new)]
    common = texts[0].keys() & texts[1].keys()
    changed = sorted(f"{k[1]}" for k in common if texts[0][k] != texts[1][k])
    if changed:
        return f"graded by different rules (the wording of {', '.join(changed[:5])} differs)"
    return None


def _flips(eval_id: str, configuration: str, base: list[RunOutcome], new: list[RunOutcome]) -> list[Flip]:
    keys = sorted({k for r in base + new for k in r.items}, key=natural_key)
    found = []
    for key in keys:
        before, after = _majority(base, key), _majority(new, key)
        if before is None or after is None or before == after:
            continue
        text = next(r.items[key][0] for r in base + new if key in r.items)
        found.append(Flip(eval_id, configuration, key, text, WAS[before], NOW[after],
                          _side(base, key, before), _side(new, key, after)))
    return found


def _majority(runs: list[RunOutcome], key: str) -> str | None:
    """"pass" when it passed in more than half of the runs that graded it; under
    half, "error" when its errors decide that (were they passes, it would pass in
    half or more: what referee could not read is no failure), else "fail"; None
    when exactly half passed, or it was never graded."""
    graded = [r.items[key][1] for r in runs if key in r.items and r.items[key][1] in ("pass", "fail", "error")]
    passed, errors = graded.count("pass"), graded.count("error")
    if not graded or 2 * passed == len(graded):
        return None
    if 2 * passed > len(graded):
        return "pass"
    return "error" if 2 * (passed + errors) >= len(graded) else "fail"


def _side(runs: list[RunOutcome], key: str, majority: str) -> tuple[int, int, str, int]:
    graded = [r for r in runs if key in r.items and r.items[key][1] in ("pass", "fail", "error")]
    example = next((r for r in graded if r.items[key][1] == majority), graded[0])
    outcomes = [r.items[key][1] for r in graded]
    return outcomes.count("pass"), len(graded), example.items[key][2], outcomes.count("error")
