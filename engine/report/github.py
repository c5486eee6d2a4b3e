"""``referee report --format github``: GitHub Actions workflow commands.

Printed in a job's log, each ``::error file=...,line=...::`` line becomes an
annotation on that file and line: the transcript (or output file) line the
evidence cites, else the rules line of the assertion, each as a path from the
repository root (``engine.report.places``). A failure that counts toward the gate
is an error; one that does not (existence only, not gated) a warning; the eval's
feedback (a tool name no run called, a vacuous pass) a notice, once per eval.
With a primary configuration known, only its runs are annotated: another
configuration (a baseline that fails by design) gets one notice as context.
GitHub shows 10 annotations of each level in a step: past them, the rest are
counted in one annotation of their level, and the decision is always shown.
Values are escaped as the runner expects (``%``, CR, LF; and ``:`` and ``,``
inside properties), so no text from a run can start a command of its own; and
made visible first (``engine.report.inert.visible``: what ``inert`` escapes on
every console line of referee, and the invisible format characters): the commands
go to a CI log or a terminal, where an escape sequence from a run would recolour,
hide or rewrite text, and become annotations GitHub shows on its pages, where a
zero-width space makes "LX\u200b2084" look like "LX2084". A file whose path this
would change, or whose path holds a byte that is not UTF-8, cannot be named as it is,
so the annotation then stands on the job.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine.report.collect import Collection, GradedRun
from referee.engine.report.cut import cut, cut_line
from referee.engine.report.inert import visible
from referee.engine.report.models import Expectation
from referee.engine.report.places import Places
from referee.engine.report.tables import context_lines, decision_line, failures, release_reasons

# GitHub shows the first 10 annotations of each level in a step, and drops the rest.
MAX_PER_LEVEL = 10
# An annotation's message and title: longer ones (a grading.json another tool wrote may
# hold megabytes of evidence) are cut, and say so.
MAX_MESSAGE_CHARS = 4_000
MAX_TITLE_CHARS = 300
# What the annotations of each level are, for the one that counts those left out.
_LEFT_OUT = {"error": "failed assertions", "warning": "failures the gate does not count",
             "notice": "hints and context lines"}


def render_github(collection: Collection, places: Places | None = None) -> str:
    """The workflow commands for ``collection``; paths from ``places`` (by default
    from the current folder, with no rules file or source folder known)."""
    places = places or Places(Path("."))
    out = []
    for run, item in failures(collection):
        level = "error" if item.key in run.report.gate.counted else "warning"
        out.append(_command(level, places.of_item(run, item), run, item, _message(run, item)))
    out += _feedback(collection)
    out += [f"::notice title={_prop('referee context')}::{_data(line)}" for line in context_lines(collection)]
    decision = collection.decision
    level = {"PASS": "notice", "FAIL": "error"}.get(decision, "warning")  # CONDITIONAL PASS: a warning
    # A release decision that is not PASS says which rules it breaks: it may stand on
    # assertions that all passed (too few runs, an eval a null run passes).
    why = "\n".join([decision_line(collection)] + release_reasons(collection, breached=True))
    return "\n".join(_within_limit(out, level)
                     + [f"::{level} title={_prop('referee ' + decision)}::{_data(why)}"]) + "\n"


def _within_limit(lines: list[str], decision_level: str) -> list[str]:
    """``lines`` (commands) with at most ``MAX_PER_LEVEL`` of each level, counting the decision
    of ``decision_level`` that follows them. GitHub drops what a step annotates past 10 of a
    level: silently, and the decision, written last, first. Past the limit the rest are
    counted in an annotation of their level, in the place of the first left out."""
    levels = [line[2:line.index(" ")] for line in lines]
    room = {level: MAX_PER_LEVEL - (level == decision_level) for level in _LEFT_OUT}
    full = {level: levels.count(level) > room[level] for level in _LEFT_OUT}
    out: list[tuple[str, str | None]] = []  # (level, command), None where the count goes
    kept, left = dict.fromkeys(_LEFT_OUT, 0), dict.fromkeys(_LEFT_OUT, 0)
    for level, line in zip(levels, lines):
        if not full[level] or kept[level] < room[level] - 1:  # one is the count's
            kept[level] += 1
            out.append((level, line))
            continue
        if not left[level]:
            out.append((level, None))
        left[level] += 1
    return [line if line is not None else _left_out(level, left[level]) for level, line in out]


def _left_out(level: str, left: int) -> str:
    return (f"::{level} title={_prop('referee ' + level + 's left out')}::{left} more {_LEFT_OUT[level]} not "
            f"annotated: GitHub shows {MAX_PER_LEVEL} annotations of a kind per step; the HTML report and "
            "the JUnit file hold every one")


def _message(run: GradedRun, item: Expectation) -> str:
    lines = [item.evidence, f"check: {item.check}", f"rules: {item.rules_location}"]
    lines += [f"{file}:{line}: {text}" for file, line, text in run.cited(item)]
    if item.key not in run.report.gate.counted:
        lines.append("not counted toward the gate")
    return cut("\n".join(lines), MAX_MESSAGE_CHARS, "the HTML report and the JUnit file hold more")


def _command(level: str, place: tuple[str | None, int | None], run: GradedRun, item: Expectation,
             message: str) -> str:
    file, line = place
    if file and not _nameable(file):
        file = None
    props = [f"file={_prop(file)}"] if file else []
    props += [f"line={line}"] if file and line else []
    props.append(f"title={_prop(cut_line(f'{run.folder} {item.key} {item.text}', MAX_TITLE_CHARS))}")
    return f"::{level} {','.join(props)}::{_data(message)}"


def _nameable(path: str) -> bool:
    """Whether ``path`` can stand in a command as it is: named so, a control character
    would reach the log, and a byte that is not UTF-8 (a lone surrogate, ``\\udcff``)
    can only be written as an escape, which names a path GitHub does not find."""
    if visible(path) != path:
        return False
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _feedback(collection: Collection) -> list[str]:
    out, seen = [], set()
    for run in collection.runs:
        eval_id = run.info.eval_id
        for tip in run.report.eval_feedback.suggestions:
            key = (eval_id, tip.assertion, tip.reason)
            if key in seen:
                continue
            seen.add(key)
            where = f"eval {eval_id}" + (f" assertion {tip.assertion}" if tip.assertion else "")
            out.append(f"::notice title={_prop('referee feedback ' + where)}::{_data(tip.reason)}")
    return out


def _data(text: str) -> str:
    return visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
