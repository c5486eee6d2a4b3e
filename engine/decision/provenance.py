"""Which rules graded each run: a benchmark compares runs graded by the same rules.

Every grading.json names the rules behind each verdict (``rules_location``:
``booking.rules@c80e3172:7:1``, the file's name and the first 8 hex digits of
the SHA-256 of its text). Runs graded at different times can have been graded
by different rules (a grade of one subfolder after the rules changed, an
aggregate read while a grade was writing); comparing them would credit a
configuration with what an edit of the rules did. ``rules_mix`` says how the
runs disagree: a rules file named with two digests, or runs of one eval graded
by different files. The input files the rules read (``inputs_of``: ``eval 1:
expected.txt@1a2b3c4d``) count among the rules: a grade of one subfolder after an
input file changed is as much a mix. ``aggregate`` refuses a mix unless told;
``report`` shows it among its problems.

The LLM grader that judged a run's semantic assertions graded it too: runs of one eval
judged by different models (``judges_mix``) would credit a configuration with a more
lenient judge. A run none of whose verdicts a model gave (no ``--llm``, or each
assertion decided by its rule part) names no judge, and mixes with none.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any, Iterable, Sequence

SHOWN_RUNS = 3  # runs named per group in a message; the rest are counted
Graded = tuple[str, str, tuple[str, ...]]  # a run's path, its eval id, its rules (``name@digest``)


def rules_name(given: str, text: str) -> str:
    """A rules file as ``rules_location`` names it: its file name and the first 8 hex
    digits of the SHA-256 of its text, as in ``booking.rules@1a2b3c4d``. It names
    the file and pins its content, and does not depend on the working directory or
    on where the file sits, so grading.json stays byte-identical wherever it is made."""
    import hashlib  # here: ``referee --help`` needs no OpenSSL

    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"{PurePath(given).name}@{digest}"


def rules_of(locations: Iterable[str]) -> tuple[str, ...]:
    """The rules files named by ``rules_location`` values (``booking.rules@c80e3172:7:1``)
    as ``name@digest``, sorted; a location without a digest names none."""
    found = {location.rsplit(":", 2)[0] for location in locations if location.count(":") >= 2}
    return tuple(sorted(name for name in found if "@" in name))


def inputs_of(eval_id: str, recorded: object) -> tuple[str, ...] | None:
    """The input files a run's rules read, as grading.json's ``run.inputs`` records
    them, each named as ``rules_name`` names a rules file and with its eval (``eval 1:
    expected.txt@1a2b3c4d``), sorted; None when they are not recorded (a grading.json
    of an older referee), since then which files graded the run is unknown."""
    if not isinstance(recorded, dict) or not all(isinstance(v, str) for v in recorded.values()):
        return None
    return tuple(sorted(f"eval {eval_id}: {PurePath(str(name)).name}@{digest.removeprefix('sha256:')[:8]}"
                        for name, digest in recorded.items()))


def graded_by(rules: tuple[str, ...], inputs: tuple[str, ...] | None) -> tuple[str, ...]:
    """What graded a run, for ``rules_mix``: its rules files and the input files they
    read (none known for a grading.json that does not record them)."""
    return rules + tuple(inputs or ())


# grading.json's methods of a model's verdict (``engine.report.models.Method``): given by
# this grade's model (``grader.llm``), or carried over from an earlier grade (``judged_by``).
JUDGED, CARRIED = "grader", "grader (carried over)"


def judges_of(llm: Any, items: Iterable[tuple[str, Any]]) -> tuple[str, ...]:
    """The LLM graders that gave a run's verdicts, as ``backend:model``, sorted. ``llm``
    is grading.json's ``grader.llm``; ``items`` are each expectation's method and
    ``judged_by``. Either block may be a dict (as read) or a report model."""
    found = set()
    for method, judged_by in items:
        if method == JUDGED:
            found.add(_judge_name(llm))
        elif method == CARRIED:
            found.add(_judge_name(judged_by))
    return tuple(sorted(found))


def _judge_name(block: Any) -> str:
    def field(name: str) -> Any:
        return block.get(name) if isinstance(block, dict) else getattr(block, name, None)

    backend, model = field("backend"), field("model")
    return f"{backend}:{model}" if isinstance(backend, str) and isinstance(model, str) else "an unnamed grader"


def judges_mix(runs: Sequence[Graded]) -> list[str]:
    """One line per eval whose runs name different LLM graders (``judges_of``; runs that
    name none are left out); empty when no eval's runs do."""
    by_eval: dict[str, dict[tuple[str, ...], list[str]]] = {}
    for path, eval_id, judges in runs:
        if judges:
            by_eval.setdefault(eval_id, {}).setdefault(judges, []).append(path)
    return [f"eval {eval_id}: " + "; ".join(f"{' + '.join(judges)} judged {_runs(paths)}"
                                            for judges, paths in sorted(groups.items()))
            for eval_id, groups in by_eval.items() if len(groups) > 1]


def versions_mix(runs: Sequence[tuple[str, str]]) -> list[str]:
    """One line naming the runs each referee version graded (``runs``: each run's path and
    ``grader.version``) when they name more than one; empty otherwise. A version may read a
    check otherwise than another, as an edit of the rules would (``diff`` refuses states
    graded by different versions for the same reason)."""
    by_version: dict[str, list[str]] = {}
    for path, version in runs:
        by_version.setdefault(version, []).append(path)
    if len(by_version) < 2:
        return []
    return ["; ".join(f"{version} graded {_runs(paths)}" for version, paths in sorted(by_version.items()))]


def rules_mix(runs: Sequence[Graded]) -> list[str]:
    """One line per disagreement between the rules that graded ``runs`` (in the order
    given); empty when every rules file has one content across the runs and each
    eval's runs were graded by the same files."""
    found = _names_with_two_contents(runs)
    if found:  # the evals' differences would say the same again
        return found
    return [f"eval {eval_id}: " + "; ".join(f"{' + '.join(rules) or 'no rules file'} graded {_runs(paths)}"
                                            for rules, paths in groups.items())
            for eval_id, groups in _evals_graded_apart(runs).items()]


def _names_with_two_contents(runs: Sequence[Graded]) -> list[str]:
    by_name: dict[str, dict[str, list[str]]] = {}
    for path, _, files in runs:
        for rules in files:
            name, _, digest = rules.rpartition("@")
            by_name.setdefault(name, {}).setdefault(digest, []).append(path)
    return [f"{name}: " + "; ".join(f"@{digest} graded {_runs(paths)}" for digest, paths in sorted(digests.items()))
            for name, digests in sorted(by_name.items()) if len(digests) > 1]


def _evals_graded_apart(runs: Sequence[Graded]) -> dict[str, dict[tuple[str, ...], list[str]]]:
    by_eval: dict[str, dict[tuple[str, ...], list[str]]] = {}
    for path, eval_id, files in runs:
        by_eval.setdefault(eval_id, {}).setdefault(files, []).append(path)
    return {eval_id: groups for eval_id, groups in by_eval.items() if len(groups) > 1}


def _runs(paths: Iterable[str]) -> str:
    paths = list(paths)
    shown = ", ".join(paths[:SHOWN_RUNS])
    more = f" and {len(paths) - SHOWN_RUNS} more" if len(paths) > SHOWN_RUNS else ""
    return f"{len(paths)} run{'s' if len(paths) != 1 else ''} ({shown}{more})"
