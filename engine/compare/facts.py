"""Facts about two configurations that the analysis puts into words.

Each fact is counted over runs and cites a run and its evidence: assertions that
pass more often on one side, claims the record does not bear out, tool calls that
ended in error, runs that read what they must not, and what SKILL.md names
against what the runs used.
"""

from __future__ import annotations

from typing import Sequence

from referee.dsl.frozen import frozen
from referee.engine.compare.load import Graded, Loaded
from referee.engine.compare.skilltext import Named, SkillText
from referee.engine.run.workspace import natural_key


@frozen
class Tally:
    """One assertion of one eval in one configuration."""

    eval_id: str
    key: str
    text: str
    gated: bool
    passed: int
    runs: int  # runs where it was graded
    failing: tuple[Graded, ...]  # runs where it failed or errored, in order
    errored: int = 0  # of those, runs where it errored: evidence that could not be read, no failure

    @property
    def rate(self) -> float | None:
        return self.passed / self.runs if self.runs else None

    @property
    def best_rate(self) -> float | None:
        """The rate were its errors passes: an ERROR may hide a pass."""
        return (self.passed + self.errored) / self.runs if self.runs else None

    @property
    def failed(self) -> int:
        return len(self.failing) - self.errored

    def not_passing(self) -> str:
        """Where it did not pass, failures and errors apart: "fails in 1 of 3 runs and
        could not be read in 1 of 3 runs"."""
        said = [f"fails in {of_runs(self.failed, self.runs)}"] if self.failed else []
        said += [f"could not be read in {of_runs(self.errored, self.runs)}"] if self.errored else []
        return " and ".join(said)


def tallies(runs: Sequence[Graded]) -> dict[tuple[str, str], Tally]:
    """(eval id, key) -> tally over ``runs`` (one configuration)."""
    found: dict[tuple[str, str], list] = {}
    for run in runs:
        for item in run.items:
            if not item.graded:
                continue
            entry = found.setdefault((run.eval_id, item.key), [item.text, item.gated, 0, 0, [], 0])
            entry[1] = entry[1] or item.gated
            entry[2] += item.passed
            entry[3] += 1
            if not item.passed:
                entry[4].append(run)
            entry[5] += item.outcome == "error"
    return {k: Tally(k[0], k[1], v[0], v[1], v[2], v[3], tuple(v[4]), v[5])
            for k, v in sorted(found.items(), key=lambda kv: (natural_key(kv[0][0]), natural_key(kv[0][1])))}


def evidence(run: Graded, key: str, limit: int = 200) -> str:
    item = run.item(key)
    text = " ".join((item.evidence if item else "").split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return f"{run.path}: {text}" if text else run.path


def better(mine: Tally, theirs: Tally | None) -> bool:
    """``mine`` passes in a larger share of runs than ``theirs``, even were the errors of
    ``theirs`` passes: an ERROR is evidence that could not be read, not a failure."""
    return (theirs is not None and mine.rate is not None and theirs.best_rate is not None
            and mine.rate > theirs.best_rate)


def of_runs(count: int, total: int) -> str:
    return f"{count} of {total} run{'s' if total != 1 else ''}"


@frozen
class Use:
    """How one named item was used by one configuration's runs."""

    named: Named
    runs: int
    used: int
    first: str | None  # "path step N" of the first use
    unknown: int = 0  # runs not seen using it whose calls may not all be read: they may have

    @property
    def never(self) -> bool:
        """No run used it, and every run's calls were read: "never" can be said."""
        return not self.used and not self.unknown

    def unchecked(self) -> str:
        """What says the runs that could not be checked, or "" when there are none."""
        if not self.unknown:
            return ""
        return (f"{of_runs(self.unknown, self.runs)} could not be checked (their calls may be "
                "incomplete: a call not read may be the one that used it)")


def uses(text: SkillText, runs: Sequence[Graded]) -> list[Use]:
    found = []
    for named in text.named:
        used, first, unknown = 0, None, 0
        for run in runs:
            call = named.used_by(run.source.transcript.calls)
            if call is not None:
                used += 1
                first = first or f"{run.path} step {call.step if call.step is not None else '?'}"
            elif calls_unsure(run):
                unknown += 1
        found.append(Use(named, len(runs), used, first, unknown))
    return found


def calls_unsure(run: Graded) -> bool:
    """Whether ``run``'s calls may not all have been read, as the grade's ``tools_certain``
    says: a transcript that cannot be read, records that broke its grammar, no record
    at all, or calls the import or a changed view may have lost (``Run.calls_incomplete``).
    Such a run not seen using an item may have used it."""
    source = run.source
    transcript = source.transcript
    return (transcript.unreadable is not None or bool(transcript.suspect_calls) or source.no_record is not None
            or source.calls_incomplete() is not None)


def following(text: SkillText, runs: Sequence[Graded], configuration: str, own: bool) -> dict:
    """skill-creator's ``instruction_following`` entry for one configuration: 1 to 10
    from the share of named items its runs used at least once, and the issues."""
    found = uses(text, runs)
    usable = [u for u in found if u.named.exists]
    issues = [] if own else [f"measured against {text.path}: {configuration} ran without this skill"]
    for use in found:
        named, (_, never) = use.named, use.named.verb
        if not named.exists:
            issues.append(f"{text.path} names {named.name} at line {named.line}, which the skill folder lacks")
        elif use.never:
            issues.append(f"{text.path} names {named.name} at line {named.line}; {configuration} {never} it "
                          f"(0 of {use.runs} runs)")
        elif not use.used:
            issues.append(f"{text.path} names {named.name} at line {named.line}; it was not seen "
                          f"{named.verb[0]} in {configuration}'s runs, and {use.unchecked()}")
        elif use.used < use.runs:
            issues.append(f"{named.name} ({text.path}:{named.line}) {named.verb[0]} in "
                          f"{of_runs(use.used, use.runs)} of {configuration}"
                          + (f"; {use.unchecked()}" if use.unknown else ""))
    if not usable:
        return {"score": None, "issues": issues + [f"{text.path} names no file or tool the runs could use: "
                                                   "instruction following is not measured"]}
    if any(not u.used and u.unknown for u in usable):
        # an item no run was seen using may have been used in a call not read: the share is unknown
        return {"score": None, "issues": issues + ["instruction following is not measured: runs whose calls "
                                                   "may be incomplete may have used what none was seen using"]}
    share = sum(1 for u in usable if u.used) / len(usable)
    return {"score": 1 + int(9 * share + 0.5), "issues": issues}


def coverage(text: SkillText, loaded: Loaded) -> list[dict]:
    """Per named item, its use by every configuration, and one line saying it."""
    rows = []
    for named in text.named:
        found = {config: uses(SkillText(text.path, (named,)), loaded.of(config))[0]
                 for config in loaded.configurations}
        by_config = {config: {"used": use.used, "runs": use.runs, "first": use.first, "unknown": use.unknown}
                     for config, use in found.items()}
        total = sum(use.runs for use in found.values())
        used = sum(use.used for use in found.values())
        unknown = sum(use.unknown for use in found.values())
        verb, never = named.verb
        line = (f"{named.name} (SKILL.md:{named.line}) {never} in {total} runs" if not used and not unknown else
                f"{named.name} (SKILL.md:{named.line}) {verb} in {used} of {total} runs")
        if unknown:
            line += (f"; {of_runs(unknown, total)} could not be checked (their calls may be incomplete: a call "
                     "not read may be the one that used it)")
        rows.append({"kind": named.kind, "name": named.name, "line": named.line, "exists": named.exists,
                     "configurations": by_config, "summary": line})
    return rows


def unverified(runs: Sequence[Graded], limit: int = 5) -> list[str]:
    found = [f"{run.path}: claims \"{claim.text}\", which the record does not bear out ({claim.evidence})"
             for run in runs for claim in run.claims if not claim.verified]
    more = len(found) - limit
    return found[:limit] + ([f"and {more} more unverified claims"] if more > 0 else [])


def errors(runs: Sequence[Graded], configuration: str) -> str | None:
    erring = [run for run in runs if run.errors]
    unknown = sum(1 for run in runs if run.errors is None)
    if not erring:
        return None if not unknown else (f"tool call errors of {of_runs(unknown, len(runs))} of {configuration} "
                                          "are unknown: their calls were not all read")
    first = erring[0]
    call = next((c for c in first.source.transcript.calls if (c.status or "").lower() == "error"), None)
    where = f" (first: {first.path} step {call.step} {call.tool})" if call is not None else ""
    untold = f"; unknown in {of_runs(unknown, len(runs))}" if unknown else ""
    return (f"{sum(run.errors or 0 for run in erring)} tool calls ended in error in {of_runs(len(erring), len(runs))} "
            f"of {configuration}{where}{untold}")
