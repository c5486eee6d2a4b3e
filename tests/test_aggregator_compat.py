"""grading.json as skill-creator's consumers read it (anthropics/skills, skill-creator).

Each test names the part of the published ``scripts/aggregate_benchmark.py``
(``load_run_results``) or ``eval-viewer`` (``generate_review.py`` and
``viewer.html``'s ``renderGrades``) whose reads it mirrors. Their code is not
copied here: the checks state, from our side, the fields and types they rely on.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main

RULES = """
eval 1
expect 1: count(calls to glob "*saveExpenseDoc") == 1
expect 5: not response contains "{fdId}"
expect 7: response is not empty
expect 8
eval 2
expect 1: exists file "summary.csv"
expect 2: first(lines(file "summary.csv")) == "region,total"
"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory, shared_examples: Path) -> list[tuple[Path, dict]]:
    root = tmp_path_factory.mktemp("compat")
    shutil.copytree(shared_examples / "expense-skill-workspace", root / "ws")
    (root / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(root / "ws"), "--rules", str(root / "r.rules")]) in (0, 1)
    found = sorted((root / "ws").rglob("grading.json"))
    assert len(found) == 6
    return [(path, json.loads(path.read_text(encoding="utf-8"))) for path in found]


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def test_found_where_the_aggregator_looks(graded):
    # It globs eval-* under the benchmark dir, then <config>/run-* and parses the
    # number after "run-" with int(); grading.json must sit in that run directory.
    for path, _ in graded:
        run, config, eval_dir = path.parent, path.parent.parent, path.parent.parent.parent
        assert eval_dir.name.startswith("eval-") and config.is_dir()
        assert int(run.name.split("-")[1]) >= 1


def test_summary_fields(graded):
    # It reads summary.pass_rate (default 0.0) and summary.passed/failed/total (default 0)
    # with .get; a missing summary silently becomes 0 %. The viewer multiplies
    # summary.pass_rate by 100 and compares it with 0.8 and 0.5.
    for _, report in graded:
        summary = report["summary"]
        assert is_number(summary["pass_rate"]) and 0 <= summary["pass_rate"] <= 1
        assert all(is_int(summary[k]) for k in ("passed", "failed", "total"))
        assert summary["total"] == summary["passed"] + summary["failed"]
        expected = round(summary["passed"] / summary["total"], 4) if summary["total"] else 0.0
        assert summary["pass_rate"] == expected


def test_timing_fields(graded):
    # It reads timing.total_duration_seconds from grading.json (a number, default 0.0)
    # and only when that is 0.0 opens timing.json for total_tokens; otherwise it takes
    # execution_metrics.output_chars as the tokens and never reads timing.total_tokens
    # (docs/aggregate.md). referee aggregate reads total_tokens from grading.json's
    # timing when timing.json is gone, so the copy is kept whole.
    for path, report in graded:
        timing = report["timing"]
        assert isinstance(timing, dict)
        assert is_number(timing.get("total_duration_seconds", 0.0))
        given = json.loads((path.parent / "timing.json").read_text())
        assert timing["total_tokens"] == given["total_tokens"]


def test_execution_metrics_fields(graded):
    # It reads execution_metrics.total_tool_calls, .output_chars and
    # .errors_encountered with .get (numbers); a missing block counts as zeros.
    for _, report in graded:
        metrics = report["execution_metrics"]
        for key in ("total_tool_calls", "output_chars", "errors_encountered"):
            assert is_int(metrics[key])


def test_expectation_fields(graded):
    # It warns when an expectation lacks "text" or "passed"; the viewer shows
    # text, a tick from the truthiness of passed, and evidence when present.
    for _, report in graded:
        assert isinstance(report["expectations"], list) and report["expectations"]
        for item in report["expectations"]:
            assert isinstance(item["text"], str) and item["text"]
            assert isinstance(item["passed"], bool)
            assert isinstance(item["evidence"], str) and item["evidence"]


def test_each_text_once_per_run(graded):
    # The viewer's benchmark tab has one row per expectation text of an eval and shows,
    # for each run, the verdict of the first expectation with that text.
    for _, report in graded:
        texts = [item["text"] for item in report["expectations"]]
        assert len(texts) == len(set(texts)), texts


def test_user_notes_summary_fields(graded):
    # It concatenates user_notes_summary.uncertainties, .needs_review and
    # .workarounds (lists) into the run's notes.
    for _, report in graded:
        notes = report["user_notes_summary"]
        for key in ("uncertainties", "needs_review", "workarounds"):
            assert isinstance(notes[key], list) and all(isinstance(n, str) for n in notes[key])
    first = dict(graded)[sorted(dict(graded))[0]]
    assert first["user_notes_summary"]["uncertainties"]


def test_nothing_breaks_the_viewer_page(graded):
    # generate_review.py embeds the whole grading.json in a <script> element with
    # json.dumps, which leaves "</script>" alone and ends the element early.
    for path, _ in graded:
        assert not re.search(r"</script|<!--", path.read_text(encoding="utf-8"), re.IGNORECASE)
