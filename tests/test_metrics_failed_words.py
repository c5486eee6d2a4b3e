"""Computed ``errors_encountered`` counts every call the transcript reader reads as failed.

The record format writes ``Status: error``; other harnesses write ``failed`` or
``failure`` for the same thing, and the reader (``engine.run.status_words``) takes
them all for a failed call: ``no calls with status error`` fails on them. The
metrics grading.json computes for a run without metrics.json counted ``error``
alone, so it said ``errors_encountered: 0`` of a run whose one call failed.

The run is built from a real Claude Code session whose one Bash call the user
refused (tests/fixtures/real/claude-code/permission-dialog-bash-refused, see its
SOURCE.md), imported, with the record's status word written the other ways.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.facts.metrics import computed_metrics, execution_metrics
from referee.engine.run.importers import import_sources
from referee.engine.run.workspace import load_run

SOURCE = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "permission-dialog-bash-refused"
          / "adfc5dd1-7ead-4bf4-8be5-810ab3437d8b.jsonl")


def _imported_transcript(tmp_path: Path) -> str:
    import_sources("claude-code", [SOURCE], tmp_path / "imported")
    [found] = (tmp_path / "imported").glob("*/outputs/transcript.md")
    text = found.read_text(encoding="utf-8")
    assert text.count("\nStatus: error\n") == 1  # the refused Bash call
    return text


def _run_with_status(tmp_path: Path, word: str):
    """A run folder holding the real transcript with its failed call's status ``word``
    and no metrics.json (the metrics are computed)."""
    text = _imported_transcript(tmp_path).replace("\nStatus: error\n", f"\nStatus: {word}\n")
    folder = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (folder / "outputs").mkdir(parents=True)
    (folder / "transcript.md").write_text(text, encoding="utf-8")
    return load_run(folder, tmp_path / "ws")


@pytest.mark.parametrize("word", ["error", "failed", "failure", "FAILED", "Error"])
def test_a_failed_call_is_counted_whatever_word_says_so(tmp_path, word):
    run = _run_with_status(tmp_path, word)
    metrics, source = execution_metrics(run)
    assert source == "transcript"
    assert metrics["total_tool_calls"] == 1
    assert metrics["errors_encountered"] == 1
    assert computed_metrics(run)["errors_encountered"] == 1


@pytest.mark.parametrize("word", ["success", "ok", "completed", "succeeded"])
def test_a_call_that_succeeded_is_no_error(tmp_path, word):
    run = _run_with_status(tmp_path, word)
    assert computed_metrics(run)["errors_encountered"] == 0
