"""A metrics.json's fields are copied as counts only when they are counts, and its
counts of calls only when the run's tool-call record does not contradict them.

Built from real runs: the nabledge executor's metrics.json
(tests/fixtures/real/nabledge-test-workspace, see its SOURCE.md), and the Claude Code
session coverage-test-fix (tests/fixtures/real/claude-code, see its SOURCE.md) as
its dual-section view, written beside a metrics.json the agent wrote, as a harness
that records the calls leaves them. Before: ``total_steps: -3``, ``files_created:
"x"`` and ``tool_calls: {"Bash": -1}`` reached grading.json as the run's counts, and a
metrics.json counting 2 calls beside a record of 13 was copied without a word.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from referee.engine.facts.metrics import execution_metrics, metrics_problems
from referee.engine.grade import run_facts
from referee.engine.run.importers import import_sources
from referee.engine.run.workspace import Run, load_run

REAL = Path(__file__).parent / "fixtures" / "real"
NABLEDGE = REAL / "nabledge-test-workspace" / "eval-processing-005-183659" / "with_skill"


def _nabledge(tmp_path: Path, **changed) -> Run:
    folder = tmp_path / "eval-processing-005-183659" / "with_skill"
    shutil.copytree(NABLEDGE, folder)
    metrics = folder / "outputs" / "metrics.json"
    metrics.write_text(json.dumps({**json.loads(metrics.read_text(encoding="utf-8")), **changed}), encoding="utf-8")
    return load_run(folder, tmp_path)


def test_the_real_metrics_json_is_copied_whole(tmp_path):
    given = json.loads((NABLEDGE / "outputs" / "metrics.json").read_text(encoding="utf-8"))
    assert execution_metrics(_nabledge(tmp_path)) == (given, "metrics.json")


def test_fields_not_of_their_shape_are_left_out_and_said_why(tmp_path):
    run = _nabledge(tmp_path, total_steps=-3, files_created="x", tool_calls={"Bash": -1, "Read": 4},
                    transcript_chars=float(2 ** 60))
    found, source = execution_metrics(run)
    assert source == "metrics.json"
    assert found["total_tool_calls"] == 10 and found["output_chars"] == 5506  # the sound ones stand
    for name in ("total_steps", "files_created", "tool_calls", "transcript_chars"):
        assert name not in found, name
    [group] = found["not_counted"]
    assert group["fields"] == ["tool_calls", "total_steps", "files_created", "transcript_chars"]
    reason = group["reason"]
    assert "total_steps is -3, below 0" in reason and "not a list of file names" in reason
    assert "'Bash': -1 in it, below 0" in reason and "above 9,007,199,254,740,992" in reason


def test_a_not_counted_the_file_writes_is_not_copied(tmp_path):
    found, _ = execution_metrics(_nabledge(tmp_path, not_counted="nothing was left out"))
    assert "not_counted" not in found


def _recorded(tmp_path: Path, **metrics) -> Run:
    """coverage-test-fix as a run whose harness wrote the record and whose agent wrote metrics.json."""
    import_sources("claude-code", [REAL / "claude-code" / "coverage-test-fix" / "transcript.jsonl"],
                   tmp_path / "ws", eval_id="1", configuration="with_skill")
    [folder] = (tmp_path / "ws").glob("eval-1/with_skill/run-*")
    (folder / "source_map.json").unlink()
    given = json.loads((folder / "outputs" / "metrics.json").read_text(encoding="utf-8"))
    (folder / "outputs" / "metrics.json").write_text(json.dumps({**given, **metrics}), encoding="utf-8")
    return load_run(folder, tmp_path / "ws")


def test_counts_the_record_bears_out_are_copied(tmp_path):
    run = _recorded(tmp_path)
    found, source = execution_metrics(run)
    assert source == "metrics.json" and found["total_tool_calls"] == 13 and not metrics_problems(run)


def test_fewer_calls_than_the_record_holds_are_not_the_runs_count(tmp_path):
    run = _recorded(tmp_path, total_tool_calls=2)
    found, source = execution_metrics(run)
    assert source == "transcript" and found["total_tool_calls"] == 13
    [problem] = metrics_problems(run)
    assert problem.code == "metrics-contradicted"
    assert "total_tool_calls is 2, but the run's tool-call record holds 13" in problem.message
    assert any("metrics-contradicted" in line for line in run_facts(run, "1").problems)


def test_a_failed_call_or_a_tool_the_file_leaves_out_is_a_contradiction(tmp_path):
    run = _recorded(tmp_path / "a", errors_encountered=0)
    assert execution_metrics(run)[1] == "transcript"
    assert "errors_encountered is 0, but the run's tool-call record holds 1 failed call(s)" in \
        metrics_problems(run)[0].message
    run = _recorded(tmp_path / "b", tool_calls={"Bash": 5, "Edit": 3, "Read": 3})
    assert "tool_calls.Glob is 0, but the run's tool-call record holds 2" in metrics_problems(run)[0].message
    run = _recorded(tmp_path / "c", errors_encountered=4)  # errors besides failed calls: no contradiction
    assert execution_metrics(run)[1] == "metrics.json"
