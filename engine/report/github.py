"""``referee report --format github``: GitHub Actions workflow commands.

Printed in a job's log, each ``::error file=...,line=...::`` line becomes an
annotation on that file and line: the transcript (or output file) line the
evidence cites, else the rules line of the assertion, each as a path from the
repository root (``engine.report.places``). A failure that counts toward the gate
is an error; one that does not (existence only, not gated) a warning; the eval's
feedback (a tool name no run called, a vacuous pass) a notice, once per eval.
With a primary configuration known, only its runs are annotated: another
configuration (a baseline that fails by design) gets one notice as context.
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
from referee.engine.report.inert import visible
from referee.engine.report.models import Expectation
from referee.engine.report.places import Places
from referee.engine.report.tables import context_lines, decision_line, failures


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
    out.append(f"::{level} title={_prop('referee ' + decision)}::{_data(decision_line(collection))}")
    return "\n".join(out) + "\n"


def _message(run: GradedRun, item: Expectation) -> str:
    lines = [item.evidence, f"check: {item.check}", f"rules: {item.rules_location}"]
    lines += [f"{file}:{line}: {text}" for file, line, text in run.cited(item)]
    if item.key not in run.report.gate.counted:
        lines.append("not counted toward the gate")
    return "\n".join(lines)


def _command(level: str, place: tuple[str | None, int | None], run: GradedRun, item: Expectation,
             message: str) -> str:
    file, line = place
    if file and not _nameable(file):
        file = None
    props = [f"file={_prop(file)}"] if file else []
    props += [f"line={line}"] if file and line else []
    props.append(f"title={_prop(f'{run.folder} {item.key} {item.text}')}")
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
