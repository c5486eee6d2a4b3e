"""Computed execution metrics leave out what the run's files cannot give whole.

grading.json's ``execution_metrics``, computed where a run has no usable
metrics.json, are summed by referee aggregate and skill-creator's aggregator as
the run's own. From a cut transcript they said ``total_tool_calls: 2,
errors_encountered: 0`` while ``no calls with status error`` was an ERROR on the
same run (the calls after the cut are unknown); from a run with no transcript,
``total_tool_calls: 0``. Now such counts are left out, and ``not_counted`` says
which and why.

The runs are built from a real Claude Code stream-json session in which the agent
made two Bash calls (tests/fixtures/real/claude-code/stream-parallel-calls, see its
SOURCE.md), imported, then cut or changed as each test says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.facts.metrics import computed_metrics, execution_metrics
from referee.engine.run.importers import import_sources
from referee.engine.run.workspace import load_run

SOURCE = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-parallel-calls"
          / "claude_stream_real_capture.jsonl")
CALLS = ["tool_calls", "total_tool_calls", "total_steps", "errors_encountered"]
RULES = 'eval "1"\nexpect 1: no calls with status error\nexpect 2: count(calls) == 2\n'


def _transcript(tmp_path: Path) -> str:
    import_sources("claude-code", [SOURCE], tmp_path / "imported")
    [found] = (tmp_path / "imported").glob("*/outputs/transcript.md")
    return found.read_text(encoding="utf-8")


def _run(tmp_path: Path, text: str | None) -> Path:
    """A skill-creator run folder holding ``text`` as its transcript (none for None),
    a response and no metrics.json."""
    folder = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (folder / "outputs").mkdir(parents=True)
    (folder / "outputs" / "response.md").write_text("Done.", encoding="utf-8")
    if text is not None:
        (folder / "transcript.md").write_text(text, encoding="utf-8")
    return folder


def _metrics(tmp_path: Path, folder: Path) -> dict:
    run = load_run(folder, tmp_path / "ws")
    found, source = execution_metrics(run)
    assert source == "transcript"
    assert found == computed_metrics(run)
    return found


def test_the_whole_transcript_is_counted(tmp_path):
    found = _metrics(tmp_path, _run(tmp_path, _transcript(tmp_path)))
    assert found["total_tool_calls"] == 2 and found["errors_encountered"] == 0
    assert found["tool_calls"] == {"Bash": 2} and "not_counted" not in found


def test_a_cut_transcript_gives_no_call_counts(tmp_path):
    text = _transcript(tmp_path)
    cut = text[:text.index('Return: "two"') + len('Return: "tw')]  # cut inside the second call
    found = _metrics(tmp_path, _run(tmp_path, cut))
    assert not set(CALLS) & set(found)
    [group] = found["not_counted"]
    assert group["fields"] == CALLS and "ends inside the [tool_calls] record of step 2" in group["reason"]
    assert found["files_created"] == ["response.md"] and found["output_chars"] == 5


@pytest.mark.parametrize("text, reason", [
    (None, "the run has no transcript"),
    ("I ran echo one and echo two with Bash. Done.\n", "not a tool-call record"),
])
def test_a_run_without_a_record_gives_no_call_counts(tmp_path, text, reason):
    found = _metrics(tmp_path, _run(tmp_path, text))
    assert not set(CALLS) & set(found)
    assert found["not_counted"][0]["fields"] == CALLS and reason in found["not_counted"][0]["reason"]


def test_a_transcript_that_is_not_utf8_gives_no_call_counts(tmp_path):
    folder = _run(tmp_path, None)
    raw = _transcript(tmp_path).encode("utf-8").replace(b"echo one", b"echo \xff", 1)
    (folder / "transcript.md").write_bytes(raw)
    found = _metrics(tmp_path, folder)
    assert not set(CALLS) & set(found) and "not UTF-8" in found["not_counted"][0]["reason"]


@pytest.mark.parametrize("status", ["timeout", "cancelled", None])
def test_a_status_that_says_neither_leaves_errors_out(tmp_path, status):
    line = "" if status is None else f"Status: {status}\n"
    text = _transcript(tmp_path).replace("Status: success\n", line, 1)
    found = _metrics(tmp_path, _run(tmp_path, text))
    assert found["total_tool_calls"] == 2 and "errors_encountered" not in found
    [group] = found["not_counted"]
    assert group["fields"] == ["errors_encountered"] and "step 1 Bash" in group["reason"]


def test_a_folder_of_outputs_not_listed_leaves_the_output_counts_out(tmp_path):
    folder = _run(tmp_path, _transcript(tmp_path))
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "report.md").write_text("x" * 50, encoding="utf-8")
    (folder / "outputs" / "kept").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    found = _metrics(tmp_path, folder)
    assert "files_created" not in found and "output_chars" not in found
    assert found["total_tool_calls"] == 2
    [group] = found["not_counted"]
    assert group["fields"] == ["files_created", "output_chars"] and "outputs/kept" in group["reason"]


def test_grading_json_says_what_was_not_counted(tmp_path):
    text = _transcript(tmp_path)
    _run(tmp_path, text[:text.index('Return: "two"') + len('Return: "tw')])
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "r.rules")]) == 1
    report = json.loads((tmp_path / "ws" / "eval-1" / "with_skill" / "run-1" / "grading.json").read_text())
    assert [item["outcome"] for item in report["expectations"]] == ["error", "error"]
    metrics = report["execution_metrics"]
    assert "total_tool_calls" not in metrics and "errors_encountered" not in metrics
    assert metrics["not_counted"][0]["fields"] == CALLS


def test_benchmark_json_gives_no_call_counts_for_such_a_run(tmp_path):
    """``referee aggregate`` copies the counts into benchmark.json: where grading.json
    gives none, tool_calls and errors are null there, never a 0 the run did not count;
    a whole run beside it keeps its numbers."""
    text = _transcript(tmp_path)
    _run(tmp_path, text[:text.index('Return: "two"') + len('Return: "tw')])
    whole = tmp_path / "ws" / "eval-1" / "with_skill" / "run-2"
    (whole / "outputs").mkdir(parents=True)
    (whole / "outputs" / "response.md").write_text("Done.", encoding="utf-8")
    (whole / "transcript.md").write_text(text, encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "r.rules")])
    main(["aggregate", str(tmp_path / "ws")])
    runs = json.loads((tmp_path / "ws" / "benchmark.json").read_text(encoding="utf-8"))["runs"]
    results = {run["run_number"]: run["result"] for run in runs}
    assert (results[1]["tool_calls"], results[1]["errors"]) == (None, None)
    assert (results[2]["tool_calls"], results[2]["errors"]) == (2, 0)


def test_compare_reads_no_count_as_unknown_not_as_none(tmp_path):
    """``referee compare`` and ``analyze`` read each run's errors from grading.json:
    where it gives no count, the run's errors are unknown (None), and the fact about
    tool call errors says so rather than leave the run out as one without any."""
    from referee.engine.compare import facts
    from referee.engine.compare.load import load

    text = _transcript(tmp_path)
    _run(tmp_path, text[:text.index('Return: "two"') + len('Return: "tw')])
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "r.rules")])
    [graded] = load(tmp_path / "ws").runs
    assert graded.errors is None
    said = facts.errors([graded], "with_skill")
    assert said is not None and "unknown" in said and "1 of 1" in said
