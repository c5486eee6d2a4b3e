"""``referee report --format junit``: JUnit XML that CI servers show as test results.

One ``<testsuite>`` per run (named by its folder), one ``<testcase>`` per
assertion. A failed assertion is a ``<failure>``, an errored one an ``<error>``,
a not-graded semantic one ``<skipped>``: each carries the evidence, the check and
the lines it cites. With a primary configuration known, a run of another
configuration (the baseline, which fails by design) is context: its suite says
so (``role`` property, ``(baseline)`` after its name) and its failures and errors
are ``<skipped>`` with that reason, never failures of the build. So is a failure or
error the gate does not count (an existence check, which a wrong answer passes
too): ``<skipped>`` with the reason it is not counted, so CI reading the file
fails where referee's gate fails and nowhere else; when nothing counted toward the
gate at all, a suite ``referee gate`` holds an error that says so. When the decision
is benchmark.json's release decision and it is not PASS, a suite ``referee release``
holds it with the rules it breached: an error for FAIL, ``<skipped>`` for CONDITIONAL
PASS (shown, and left to the CI gate as the exit code 3 is). Every level
carries its ``skipped`` count. The shape follows the JUnit schema that Jenkins publishes
(committed under ``tests/fixtures/``); no ``time`` or ``timestamp`` is written, so
the file is the same bytes for the same reports.
"""

from __future__ import annotations

import re

from referee.engine.report.collect import Collection, GradedRun
from referee.engine.report.cut import cut
from referee.engine.report.inert import log_safe, visible
from referee.engine.report.marker import GRADING
from referee.engine.report.models import Expectation
from referee.engine.report.tables import release_reasons

# Characters XML 1.0 cannot hold at all, even escaped: written as a backslash-u escape
# with four hex digits instead.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_KIND = {"fail": "failure", "error": "error"}
# A failure's evidence, as the HTML report shows it at most: a grading.json another tool
# wrote may hold megabytes in it, which CI servers cut silently or refuse.
MAX_EVIDENCE_CHARS = 20_000
_WHOLE = "grading.json holds it whole"


def render_junit(collection: Collection) -> str:
    """The whole JUnit document for ``collection``."""
    counts = [_counts(run) for run in collection.runs]
    unread = collection.unread_counted()
    tests, failures, errors, skipped = (sum(c[n] for c in counts) for n in range(4))
    empty = not unread and not any(run.report.gate.total for run in collection.counted())
    release = _release_suite(collection)
    failed_release = int(collection.decision == "FAIL" and bool(release))
    skipped_release = int(bool(release)) - failed_release
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={_attr("referee " + collection.root)} '
           f'tests="{tests + len(unread) + empty + failed_release + skipped_release}" failures="{failures}" '
           f'errors="{errors + len(unread) + empty + failed_release}" skipped="{skipped + skipped_release}">']
    for run, count in zip(collection.runs, counts):
        out.extend(_suite(run, count, collection.primary))
    for folder in unread:
        out.extend(_unread_suite(folder))
    if empty:
        out.extend(_empty_gate_suite(collection))
    out.extend(release)
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def _counts(run: GradedRun) -> tuple[int, int, int, int]:
    """tests, failures, errors, skipped: a context run's failures and errors are skipped,
    and so are those the gate does not count."""
    items = run.report.expectations
    skipped = sum(1 for e in items if e.outcome == "not_graded" or (e.outcome in _KIND and not _gated(run, e)))
    failed = sum(1 for e in items if e.outcome == "fail" and _gated(run, e))
    errors = sum(1 for e in items if e.outcome == "error" and _gated(run, e))
    return len(items), failed, errors, skipped


def _gated(run: GradedRun, item: Expectation) -> bool:
    """Whether the gate counts ``item``: in a run it counts, an assertion it counts."""
    return run.counts and item.key in run.report.gate.counted


def _suite(run: GradedRun, count: tuple[int, int, int, int], primary: str | None) -> list[str]:
    info, gate = run.info, run.report.gate
    tests, failures, errors, skipped = count
    name = run.folder + ("" if run.counts else f" ({run.role})")
    lines = [f'  <testsuite name={_attr(name)} tests="{tests}" failures="{failures}" '
             f'errors="{errors}" skipped="{skipped}">',
             "    <properties>"]
    props = [("eval_id", info.eval_id), ("eval_name", info.eval_name or ""),
             ("configuration", info.configuration), ("run_number", str(info.run_number)),
             ("gate", f"{run.status} {gate.passed}/{gate.total}")]
    props += [("role", run.role)] if run.role else []
    lines += [f"      <property name={_attr(k)} value={_attr(v)}/>" for k, v in props]
    lines.append("    </properties>")
    classname = f"{info.eval_id}.{info.configuration}.run-{info.run_number}"
    for item in run.report.expectations:
        lines.extend(_case(run, item, classname, primary))
    lines.append("  </testsuite>")
    return lines


def _unread_suite(folder: str) -> list[str]:
    """A run the gate counts whose grading.json cannot be read: its verdicts are unknown,
    so it stands as an error, never as a suite that is missing and so reads as green."""
    why = f"{GRADING} cannot be read: the run's verdicts are unknown; grade the run again"
    return [f'  <testsuite name={_attr(folder)} tests="1" failures="0" errors="1" skipped="0">',
            f"    <testcase name={_attr(GRADING)} classname={_attr(folder)}>",
            f"      <error message={_attr(why)} type=\"unreadable\">{_text(why)}</error>",
            "    </testcase>", "  </testsuite>"]


def _empty_gate_suite(collection: Collection) -> list[str]:
    """Nothing counted toward the gate (existence checks and ungraded semantic assertions
    alone, or no run of the primary): referee's gate fails (``Collection.decision``), so
    the file says so as an error, never as suites that are all passed or skipped."""
    runs = f" in the runs of {collection.primary}" if collection.primary is not None else ""
    why = f"nothing counted toward the gate{runs}: this is not a pass"
    return ['  <testsuite name="referee gate" tests="1" failures="0" errors="1" skipped="0">',
            f"    <testcase name=\"gate\" classname={_attr('referee ' + collection.root)}>",
            f"      <error message={_attr(why)} type=\"nothing-gated\">{_text(why)}</error>",
            "    </testcase>", "  </testsuite>"]


def _release_suite(collection: Collection) -> list[str]:
    """benchmark.json's release decision when it is not PASS. It is the decision the report
    exits with, and it can be FAIL with every assertion passed (too few runs where the
    release settings fail on that, an eval a null run passes, a regression): without
    this suite the file would be all green where referee says not to ship."""
    release = collection.release
    if release is None or release["decision"] == "PASS":
        return []
    decision = release["decision"]
    why = f"release decision {decision} (benchmark.json, `referee aggregate`)"
    body = "\n".join(release_reasons(collection, breached=True)) or why
    if decision == "FAIL":
        inner, counts = (f'      <error message={_attr(why)} type="release">{_text(body)}</error>',
                         'failures="0" errors="1" skipped="0"')
    else:  # CONDITIONAL PASS: the CI gate chooses (exit code 3), so it does not fail the file
        inner, counts = (f"      <skipped message={_attr(why)}>{_text(body)}</skipped>",
                         'failures="0" errors="0" skipped="1"')
    return [f'  <testsuite name="referee release" tests="1" {counts}>',
            f"    <testcase name=\"release\" classname={_attr('referee ' + collection.root)}>",
            inner, "    </testcase>", "  </testsuite>"]


def _case(run: GradedRun, item: Expectation, classname: str, primary: str | None) -> list[str]:
    head = f"    <testcase name={_attr(f'{item.key} {item.text}')} classname={_attr(classname)}"
    if item.outcome == "pass":
        return [head + "/>"]
    body = _text(_details(run, item))
    if item.outcome == "not_graded":
        inner = f"      <skipped>{body}</skipped>"
    elif not run.counts:
        why = (f"{run.role} {run.info.configuration}: this {item.outcome.upper()} is context, not a "
               f"failure (the gate counts {primary})")
        inner = f"      <skipped message={_attr(why)}>{body}</skipped>"
    elif not _gated(run, item):
        why = f"this {item.outcome.upper()} does not count toward the gate: {_exclusion(run, item)}"
        inner = f"      <skipped message={_attr(why)}>{body}</skipped>"
    else:
        kind = _KIND[item.outcome]
        message = cut(item.evidence, MAX_EVIDENCE_CHARS, _WHOLE)
        inner = (f"      <{kind} message={_attr(message)} type={_attr(item.outcome)}>"
                 f"{body}</{kind}>")
    return [head + ">", inner, "    </testcase>"]


def _exclusion(run: GradedRun, item: Expectation) -> str:
    return next((x.reason for x in run.report.gate.excluded if x.assertion == item.key), "not counted")


def _details(run: GradedRun, item: Expectation) -> str:
    """The failure's body: evidence, check, rules place, gate status, cited lines."""
    lines = [cut(item.evidence, MAX_EVIDENCE_CHARS, _WHOLE), "", f"check: {item.check or '(none: semantic)'}",
             f"rules: {item.rules_location}",
             f"precision: {item.precision}; method: {item.method}; evidence source: {item.evidence_source}"]
    excluded = {x.assertion: x.reason for x in run.report.gate.excluded}
    if item.key in excluded:
        lines.append(f"not counted toward the gate: {excluded[item.key]}")
    for file, line, text in run.cited(item):
        lines.append(f"{_cited_file(run, file)}:{line}: {text}")
    return "\n".join(lines)


def _cited_file(run: GradedRun, file: str) -> str:
    """``file`` named from the workspace when it is the run folder's; else as the evidence
    names it: an imported run's source (``session.jsonl``), which lies elsewhere."""
    if run.path is not None and not (run.path / file).is_file():
        return file
    return f"{run.folder}/{file}"


def _clean(text: str) -> str:
    """``text`` as XML can hold it, and as a CI server's page shows it: a bidi control or
    an invisible character (``visible``: a carriage return too) written as an escape, so a
    name that holds U+202E before "LIAF" cannot read "FAIL" on the test report; the
    characters XML cannot hold at all, a lone surrogate among them, as a backslash-u escape."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", visible(text))


def _text(text: str) -> str:
    escaped = _clean(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # character references, read back as "[" and ":": printed (-o -), the file is a CI log
    return log_safe(escaped, "&#91;", "&#58;")


def _attr(text: str) -> str:
    """A double-quoted attribute value; newlines and tabs kept as character references."""
    escaped = _text(text).replace('"', "&quot;")
    return '"' + escaped.replace("\n", "&#10;").replace("\t", "&#9;") + '"'
