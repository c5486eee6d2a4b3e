"""A timing.json total left out of grading.json's timing is not made from other figures.

The run's timing.json is the one referee import wrote for a real Claude Code
stream-json session (tests/fixtures/real/claude-code/stream-parallel-calls, see its
SOURCE.md): its ``total_tokens`` counts the cache's tokens too, far more than
``input_tokens + output_tokens``. With that total written as text (or below 0),
grading.json's timing said ``total_tokens`` was the sum of the other two, a number
the file never gave, as if it were the run's total; now it has no total_tokens, and
the run's warning says which figure was left out and why. A file that gives no
total at all still gets the sum of its parts, which is all it says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.run.importers import import_sources

SOURCE = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-parallel-calls"
          / "claude_stream_real_capture.jsonl")
_NONE = object()  # the file gives no total_tokens
RULES = 'eval "1"\nexpect 1: count(calls to "Bash") == 2\n'


def _graded_timing(tmp_path: Path, total) -> tuple[dict, dict]:
    given, report = _graded(tmp_path, total)
    return given, report["timing"]


def _graded(tmp_path: Path, total) -> tuple[dict, dict]:
    """The imported run's timing.json with ``total_tokens`` set to ``total``, beside
    its transcript in a run folder of a workspace, and the timing of the grading.json
    graded from it."""
    import_sources("claude-code", [SOURCE], tmp_path / "imported")
    [imported] = (tmp_path / "imported").glob("*/timing.json")
    given = json.loads(imported.read_text(encoding="utf-8"))
    assert given["total_tokens"] > given["input_tokens"] + given["output_tokens"]
    given["total_tokens"] = total
    if total is _NONE:
        del given["total_tokens"], given["total_tokens_counts"]
    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "timing.json").write_text(json.dumps(given), encoding="utf-8")
    transcript = (imported.parent / "outputs" / "transcript.md").read_text(encoding="utf-8")
    (run / "transcript.md").write_text(transcript, encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "r.rules")]) == 0
    return given, json.loads((run / "grading.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("total, why", [("33000", "not a number"), (-5, "below 0"), (None, "not a number")])
def test_a_total_left_out_is_not_made_from_the_others(tmp_path, total, why):
    given, report = _graded(tmp_path, total)
    assert "total_tokens" not in report["timing"]
    assert report["timing"]["input_tokens"] == given["input_tokens"]
    [warning] = report["problems"]
    assert "warning[bad-timing]: total_tokens is" in warning and why in warning


def test_a_total_that_is_a_figure_is_copied(tmp_path):
    given, timing = _graded_timing(tmp_path, 33000)
    assert timing["total_tokens"] == 33000


def test_a_file_with_no_total_gets_the_sum_of_its_parts(tmp_path):
    given, timing = _graded_timing(tmp_path, _NONE)
    assert timing["total_tokens"] == given["input_tokens"] + given["output_tokens"]
