"""A Claude Code ``Workflow`` call runs a script that starts agents of its own; their
transcripts are kept under ``<session>/subagents/workflows/wf_<run>/``, which an
import does not read. Their calls are calls of the run all the same, so a Workflow
call that may have run leaves the run's calls unknown: a check over them is an
ERROR, never a pass on the main agent's calls alone. One refused before it ran
(a ``<tool_use_error>``) started nothing."""

from __future__ import annotations

import pytest

import referee
from claude_session import one_call_session

LAUNCHED = ("Workflow launched in background. Task ID: task_sp01\nSummary: Sweep the docs tree in batches.\n"
            "Transcript dir: S1/subagents/workflows/wf_sp01\nScript file: /home/u/sweeps/docs-sweep.workflow.js")
REFUSED = "<tool_use_error>InputValidationError: Workflow failed due to the following issue:\nscriptPath is required</tool_use_error>"


def _session(tmp_path, answer: str, is_error: bool):
    return one_call_session(tmp_path, "Workflow", {"scriptPath": "/home/u/sweeps/docs-sweep.workflow.js"}, answer,
                            is_error=is_error, prompt="sweep the docs", reply="The sweep is running.",
                            structured={"isAsync": True, "status": "async_launched", "runId": "wf_sp01",
                                        "taskId": "task_sp01"})


RULES = 'eval 1\nexpect 1: no calls to "Bash" have .args.command contains "rm "\nexpect 2: response contains "running"\n'


def _graded(session) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, session, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_the_agents_of_a_workflow_that_ran_leave_the_calls_unknown(tmp_path):
    outcomes, problems = _graded(_session(tmp_path, LAUNCHED, is_error=False))
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in p and "Workflow" in p for p in problems), problems


@pytest.mark.parametrize("answer", [REFUSED], ids=["refused"])
def test_a_workflow_refused_before_it_ran_started_nothing(tmp_path, answer):
    outcomes, problems = _graded(_session(tmp_path, answer, is_error=True))
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems), problems
