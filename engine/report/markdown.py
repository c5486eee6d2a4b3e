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
``<`` and ``>`` escaped, so a run cannot add markup, links or HTML to the comment.
"""

from __future__ import annotations

import re

from referee.engine.report.collect import Collection, GradedRun
from referee.engine.report.models import Expectation
from referee.engine.report.tables import (CONFIG_HEAD, benchmark_rows, config_cells, context_lines,
                                         decision_line, failures, release_reasons)

# GitHub refuses comments over 65,536 characters: past this many failures, a count.
MAX_FAILURES = 40
MARKER = "<!-- referee report -->"
# A cell or list item is Markdown that GitHub renders: a name from a run
# ("![PASS](https://...)", "**PASS**") would be an image or bold text there.
_MARKUP = {c: "\\" + c for c in "\\`*[]~#|"}
_CELL = str.maketrans({**_MARKUP, "<": "&lt;", ">": "&gt;", "\n": " ", "\r": " "})
# "_" emphasises only where a letter or digit is not on both sides: "with_skill" is kept as it is.
_EMPHASIS_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
# A failure's summary line is HTML, where Markdown and its backslash escapes are not read.
_HTML = str.maketrans({"<": "&lt;", ">": "&gt;", "\n": " ", "\r": " "})


def render_markdown(collection: Collection) -> str:
    out = [MARKER, f"## referee: {collection.decision}", "", decision_line(collection), ""]
    reasons = release_reasons(collection)
    if reasons:
        out += [f"- {_cell(reason)}" for reason in reasons] + [""]
    out += _table(CONFIG_HEAD, [config_cells(row) for row in collection.configurations()])
    bench = benchmark_rows(collection.benchmark)
    if bench:
        out += ["", "### Benchmark", ""] + _table(bench[0], bench[1:])
    found = failures(collection)
    out += ["", f"### Failures ({len(found)})" if found else "### Failures", ""]
    if not found:
        out.append("No assertion failed" + (f" in {collection.primary}." if collection.primary else "."))
    for run, item in found[:MAX_FAILURES]:
        out += _failure(run, item)
    if len(found) > MAX_FAILURES:
        out.append(f"... and {len(found) - MAX_FAILURES} more failures (see the HTML report).")
    context = context_lines(collection)
    if context:
        out += ["", "### Context (not gated)", ""] + [f"- {_cell(line)}" for line in context]
    out += _hints(collection)
    if collection.problems:
        out += ["", "### Problems", ""] + _fenced(collection.problems)
    return "\n".join(out).rstrip("\n") + "\n"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def _cell(text: str) -> str:
    return _EMPHASIS_UNDERSCORE.sub(r"\\_", text.translate(_CELL))


def _html(text: str) -> str:
    return text.translate(_HTML)


def _failure(run: GradedRun, item: Expectation) -> list[str]:
    title = _html(f"{item.key} {item.text}")
    lines = [f"<details><summary><b>{item.outcome.upper()}</b> {title} · <code>{_html(run.folder)}</code>"
             "</summary>", ""]
    body = [item.evidence, "", f"check: {item.check}", f"rules: {item.rules_location}"]
    body += [f"{file}:{line}: {text}" for file, line, text in run.cited(item)]
    lines += _fenced(body) + ["", "</details>", ""]
    return lines


def _hints(collection: Collection) -> list[str]:
    """Each eval's hints (its feedback, the same in all its runs), once per eval."""
    out = []
    for eval_id, eval_name, runs in collection.evals():
        tips = runs[0].report.eval_feedback.suggestions
        if tips:
            name = f"eval {eval_id}" + (f" ({eval_name})" if eval_name else "")
            out += [f"- {_cell(name)}: " + _cell((f"{tip.assertion}: " if tip.assertion else "") + tip.reason)
                    for tip in tips]
    return ["", "### Hints", ""] + out if out else []


def _fenced(lines) -> list[str]:
    text = "\n".join(lines)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", text, fence]
