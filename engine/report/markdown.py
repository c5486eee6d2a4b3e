"""``referee report --format markdown``: a summary for a pull-request comment or
``$GITHUB_STEP_SUMMARY``: the decision, a table per configuration, the benchmark
when present, then each failure with its evidence and the lines it cites, and
each eval's hints once. With a primary configuration known, only its failures are
listed; the other configurations (a baseline that fails by design) are context,
counted in one line each. The first line is a hidden marker (``MARKER``), by which
a CI step finds the comment it posted before and edits it.

Text from runs only ever stands inside fenced code blocks (the fence is longer
than any run of backticks in it), in table cells and list items with ``|``, ``<``,
``>`` and the characters of inline markup (emphasis, links and images, code,
strikethrough, headings) escaped, or in the HTML of a failure's summary line with
``<`` and ``>`` escaped, so a run cannot add markup, links or HTML to the comment;
outside code, an ``@name``, a bare address (``https://``, ``www.``) and an issue
reference (``#12``, ``GH-12``, ``owner/repo#12``) get a zero-width space, and a
commit's hash (``a5c3785``) one after every sixth digit, so a name
from a run notifies no one and links nowhere when the comment is posted
(``engine.report.markdown_text``).
"""

from __future__ import annotations

import re
from typing import Callable

from referee.engine.report.collect import Collection, GradedRun
from referee.engine.report.cut import cut_line
from referee.engine.report.inert import log_safe, visible
from referee.engine.report.markdown_text import cell, html_code, html_line
from referee.engine.report.models import Expectation
from referee.engine.report.tables import (CONFIG_HEAD, benchmark_rows, config_cells, context_lines,
                                         decision_line, failures, release_reasons)

# GitHub refuses a comment over 65,536 characters. Failures are listed while they fit
# in what the rest leaves of MAX_CHARS (and up to MAX_FAILURES), then counted; a
# failure's evidence and cited lines are cut at MAX_FAILURE_CHARS (the HTML report and
# the JUnit file hold 20,000 characters of evidence), so one long failure cannot crowd
# out the others.
MAX_CHARS = 64_000  # the room left under the limit is for the line that counts the rest
MAX_FAILURES = 40
MAX_FAILURE_CHARS = 4_000
MAX_LISTED = 20  # release reasons, table rows, context lines, hints and problems listed; the rest counted
MAX_LINE_CHARS = 300  # of a failure's title, a release reason, a hint or a problem (names are unbounded)
# What each list of names (release reasons, table rows, context lines, hints, problems)
# may take of MAX_CHARS, as written; what lists leave is the failures'.
SECTION_CHARS = 8_000
MARKER = "<!-- referee report -->"


def render_markdown(collection: Collection) -> str:
    # The decision line names the primary configuration, a folder's name: a cell's escapes.
    out = [MARKER, f"## referee: {collection.decision}", "", cell(decision_line(collection)), ""]
    reasons = release_reasons(collection)
    if reasons:
        # a reason lists what breaches it (every eval short of runs): cut, as a hint is
        out += _listed([f"- {cell(_short(reason))}" for reason in reasons], "release reasons") + [""]
    out += _table(CONFIG_HEAD, [config_cells(row) for row in collection.configurations()])
    bench = benchmark_rows(collection.benchmark)
    if bench:
        out += ["", "### Benchmark", ""] + _table(bench[0], bench[1:])
    rest = []
    context = context_lines(collection)
    if context:
        rest += ["", "### Context (not gated)", ""] + _listed([f"- {cell(line)}" for line in context],
                                                              "configurations")
    rest += _hints(collection)
    if collection.problems:
        # cut, then fenced: what a fenced block shows of a problem is its text made visible
        kept, more = _fit([_short(p) for p in collection.problems], "problems",
                          size=lambda line: len(visible(line)) + 1)
        rest += ["", "### Problems", ""] + _fenced(kept) + more
    found = failures(collection)
    out += ["", f"### Failures ({len(found)})" if found else "### Failures", ""]
    if not found:
        out.append("No assertion failed" + (f" in {cell(collection.primary)}." if collection.primary else "."))
    out += _failures(found, MAX_CHARS - _size(out) - _size(rest))
    return "\n".join(out + rest).rstrip("\n") + "\n"


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def _failures(found: list[tuple[GradedRun, Expectation]], room: int) -> list[str]:
    """A block per failure while they fit in ``room`` characters (and up to
    ``MAX_FAILURES``), then a line that counts the rest."""
    out: list[str] = []
    for shown, (run, item) in enumerate(found[:MAX_FAILURES]):
        block = _failure(run, item)
        if _size(out) + _size(block) > room:
            break
        out += block
    else:
        shown = min(len(found), MAX_FAILURES)
    if len(found) > shown:
        out.append(f"... and {len(found) - shown} more failures (see the HTML report).")
    return out


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    kept, more = _fit(["| " + " | ".join(cell(c) for c in row) + " |" for row in rows], "configurations")
    # a line right under a table is one of its rows, unless a blank line ends the table
    return lines + kept + ([""] + more if more else [])


def _failure(run: GradedRun, item: Expectation) -> list[str]:
    title = html_line(_short(f"{item.key} {item.text}"))
    gated = item.key in run.report.gate.counted
    # A failure the gate does not count (an existence check) is listed, but must not
    # read as what failed a report whose decision is PASS.
    mark = "" if gated else " (not gated)"
    lines = [f"<details><summary><b>{item.outcome.upper()}</b>{mark} {title} · <code>{html_code(run.folder)}</code>"
             "</summary>", ""]
    body = [item.evidence, "", f"check: {item.check}", f"rules: {item.rules_location}"]
    body += [] if gated else [f"not counted toward the gate: {reason}" for reason in _exclusions(run, item)]
    body += [f"{file}:{line}: {text}" for file, line, text in run.cited(item)]
    text = "\n".join(body)
    if len(text) > MAX_FAILURE_CHARS:
        text = (text[:MAX_FAILURE_CHARS - 1] + "…\n"
                f"(cut at {MAX_FAILURE_CHARS:,} characters: the HTML report and the JUnit file hold more)")
    lines += _fenced([text]) + ["", "</details>", ""]
    return lines


def _exclusions(run: GradedRun, item: Expectation) -> list[str]:
    return [x.reason for x in run.report.gate.excluded if x.assertion == item.key] or ["not counted"]


def _hints(collection: Collection) -> list[str]:
    """Each eval's hints (its feedback, the same in all its runs), once per eval."""
    out = []
    for eval_id, eval_name, runs in collection.evals():
        tips = runs[0].report.eval_feedback.suggestions
        if tips:
            name = f"eval {eval_id}" + (f" ({eval_name})" if eval_name else "")
            out += [f"- {cell(_short(name + ': ' + (f'{tip.assertion}: ' if tip.assertion else '') + tip.reason))}"
                    for tip in tips]
    return ["", "### Hints", ""] + _listed(out, "hints") if out else []


def _short(text: str) -> str:
    return cut_line(text, MAX_LINE_CHARS)


def _listed(lines: list[str], what: str) -> list[str]:
    """The lines of ``_fit``, then its count of the rest."""
    kept, more = _fit(lines, what)
    return kept + more


def _fit(lines: list[str], what: str, size: Callable[[str], int] = lambda line: len(line) + 1
         ) -> tuple[list[str], list[str]]:
    """``lines`` while they fit in ``SECTION_CHARS`` (by ``size``, each as shown) and up to
    ``MAX_LISTED`` of them, and the line that counts the rest (none when none is left out). A name
    from a workspace is unbounded once escaped (every "$" an element of its own), so
    every list of them is cut, and the summary fits in a comment whatever the names."""
    kept, used = [], 0
    for line in lines[:MAX_LISTED]:
        used += size(line)
        if used > SECTION_CHARS:
            break
        kept.append(line)
    left = len(lines) - len(kept)
    return kept, [f"... and {left} more {what} (see the HTML report)."] if left else []


def _fenced(lines: list[str]) -> list[str]:
    text = visible("\n".join(lines))  # a bidi control reorders text in a code block too
    # A code block shows what it holds: "##[" and a line's "::" as the console writes them,
    # so a summary printed (-o -) to a CI log starts no workflow command there.
    text = log_safe(text, "\\x5b", "\\x3a")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", text, fence]
