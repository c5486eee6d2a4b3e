"""Skill type detection and execution metrics."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.facts.metrics import computed_metrics, execution_metrics, skill_type
from referee.engine.run.workspace import load_run

TRANSCRIPT = """## Eval Prompt

do it

## [tool_calls] Step 1: Read
Tool: Read
Args: {"file_path": "a.csv"}
Return: "x"
Status: success

## [tool_calls] Step 2: Bash
Tool: Bash
Args: {"command": "ls"}
Return: "boom"
Status: error

## [agent_notes] Step 2: retry
Retrying.
"""


def test_skill_type_from_tool_names():
    assert skill_type(["Read", "expense-mcp_saveExpenseDoc"]) == "mcp_based"
    assert skill_type(["mcp__github__create_issue"]) == "mcp_based"
    assert skill_type(["Read", "Bash"]) == "code_execution"
    assert skill_type(["Write", "Read"]) == "text_generation"
    assert skill_type([]) == "text_generation"
    assert skill_type(["mcpish_tool", "compact"]) == "text_generation"


def make_run(tmp_path: Path, metrics: str | None = None) -> Path:
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("héllo", encoding="utf-8")
    (run / "outputs" / "summary.csv").write_text("a,b\n", encoding="utf-8")
    if metrics is not None:
        (run / "outputs" / "metrics.json").write_text(metrics, encoding="utf-8")
    return run


def test_metrics_computed_from_transcript(tmp_path):
    run = load_run(make_run(tmp_path), tmp_path)
    found, source = execution_metrics(run)
    assert source == "transcript"
    assert found == {
        "tool_calls": {"Bash": 1, "Read": 1}, "total_tool_calls": 2, "total_steps": 2,
        "files_created": ["response.md", "summary.csv"], "errors_encountered": 1,
        "output_chars": 9, "transcript_chars": len(TRANSCRIPT),
    }
    assert found == computed_metrics(run)


def test_metrics_copied_from_metrics_json(tmp_path):
    given = {"tool_calls": {"Read": 5}, "total_tool_calls": 5, "output_chars": 1.5}
    run = load_run(make_run(tmp_path, json.dumps(given)), tmp_path)
    assert execution_metrics(run) == (given, "metrics.json")


def test_broken_metrics_json_falls_back(tmp_path):
    for text in ("{not json", "[1, 2]"):
        run = load_run(make_run(tmp_path / text[:2].strip("{["), text), tmp_path)
        assert execution_metrics(run)[1] == "transcript"
