"""The counts an import wrote from calls it could not read are not copied as whole.

grading.json copies the metrics.json ``referee import`` wrote. For a real Claude
Code session whose Task call started a subagent whose log is not beside it
(tests/fixtures/real/claude-code/python-to-rust-port, see its SOURCE.md), the
import warns ``calls-may-be-missing`` and every check on a count of calls is an
ERROR; grading.json still said ``total_tool_calls: 11, errors_encountered: 0`` as
the run's. Those counts are now left out, and ``not_counted`` says why. A session
read in full (stream-parallel-calls) keeps every count.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine.facts.metrics import execution_metrics
from referee.engine.run.importers import import_sources
from referee.engine.run.workspace import load_run

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"


def _metrics(tmp_path: Path, source: Path) -> tuple[dict, str]:
    import_sources("claude-code", [source], tmp_path / "ws")
    [folder] = (tmp_path / "ws").iterdir()
    return execution_metrics(load_run(folder, tmp_path / "ws"))


def test_counts_over_calls_the_import_could_not_read_are_left_out(tmp_path):
    found, source = _metrics(tmp_path, REAL / "python-to-rust-port" / "transcript.jsonl")
    assert source == "metrics.json"
    for name in ("tool_calls", "total_tool_calls", "total_steps", "errors_encountered"):
        assert name not in found
    [group] = found["not_counted"]
    assert group["fields"] == ["tool_calls", "errors_encountered", "total_tool_calls", "total_steps"]
    assert "the import could not read every call" in group["reason"] and "subagent" in group["reason"]
    assert found["output_chars"] == 148  # text, not calls: it stands


def test_a_session_read_in_full_keeps_its_counts(tmp_path):
    found, source = _metrics(tmp_path, REAL / "stream-parallel-calls" / "claude_stream_real_capture.jsonl")
    assert source == "metrics.json" and "not_counted" not in found
    assert found["total_tool_calls"] == 2 and found["errors_encountered"] == 0 and found["tool_calls"] == {"Bash": 2}
