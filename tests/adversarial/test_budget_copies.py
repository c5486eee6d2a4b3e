"""A huge tool name is copied into grading.json only in bounded form, wherever it goes."""

from __future__ import annotations

import json

import referee
from referee.engine.run.memory import memory_run

NAME = "x" * 1_000_000
RULES = 'eval 1\nexpect: no calls to "rm_rf"\nexpect: any calls to "deploy"\n'


def _run(metrics: bool):
    block = f"## [tool_calls] Step 1: t\nTool: {NAME}\nArgs: {{}}\nReturn: {{}}\nStatus: success\n"
    files = {"outputs/transcript.md": block}
    if metrics:  # the agent's own metrics.json, naming the same tool
        files["outputs/metrics.json"] = json.dumps({"tool_calls": {NAME: 1}, "total_tool_calls": 1})
    return memory_run(files)


def test_metrics_and_feedback_copy_a_bounded_tool_name():
    for metrics in (False, True):
        (result,) = referee.grade(RULES, _run(metrics))
        assert len(result.grading_json) < 60_000, len(result.grading_json)
        grading = result.grading
        (key,) = grading["execution_metrics"]["tool_calls"]
        assert key.endswith("[cut: 1,000,000 characters in all]")
        assert grading["execution_metrics"]["tool_calls"][key] == 1
        feedback = json.dumps(grading["eval_feedback"])
        assert "cut: 1,000,000 characters in all" in feedback
