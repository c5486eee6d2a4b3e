"""A Claude Code ``Workflow`` call runs a script that starts agents of its own; their
transcripts are kept under ``<session>/subagents/workflows/wf_<run>/``, which an
import does not read. Their calls are calls of the run all the same, so a Workflow
call that may have run leaves the run's calls unknown: a check over them is an
ERROR, never a pass on the main agent's calls alone. One refused before it ran
(a ``<tool_use_error>``) started nothing. A Workflow call's answer is only the notice
that its script runs on in the background, so its return and status are unknown too."""

from __future__ import annotations

import pytest

import referee
from claude_session import one_call_session

LAUNCHED = ("Workflow launched in background. Task ID: task_sp01\nSummary: Sweep the docs tree in batches.\n"
            "Transcript dir: S1/subagents/workflows/wf_sp01\nScript file: /home/u/sweeps/docs-sweep.workflow.js")
REFUSED = "<tool_use_error>InputValidationError: Workflow failed due to the following issue:\nscriptPath is required</tool_use_error>"


LAUNCH = {"isAsync": True, "status": "async_launched", "runId": "wf_sp01", "taskId": "task_sp01"}


def _session(tmp_path, answer: str, is_error: bool, structured: object = LAUNCH):
    return one_call_session(tmp_path, "Workflow", {"scriptPath": "/home/u/sweeps/docs-sweep.workflow.js"}, answer,
                            is_error=is_error, prompt="sweep the docs", reply="The sweep is running.",
                            structured=structured)


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


# The Workflow tool's answers, as public sources show them: "Workflow launched in
# background. Task ID: ..." then Summary / Transcript dir / Script file lines (a session
# exported with its 253 calls; utensils/claudette#1011; juspay/kolu#1015, whose
# packages/integrations/claude-code/src/core.ts reads that notice and a Run ID line), or a
# Run ID, Script file and "You will be notified when it completes" (a study of 2.1.150-2.1.160
# citing sdk-tools.d.ts, where WorkflowOutput's status is async_launched or remote_launched;
# alamops/agetor#140 shows toolUseResult {status: async_launched, taskType: local_workflow}).
# A remote launch's text was found nowhere: its structured status alone is read.
@pytest.mark.parametrize("answer, structured", [
    (LAUNCHED, None),
    ("Workflow launched in background. Task ID: wi7ye81mb\nRun ID: wf_dacbd480-d5d\nScript file: /home/u/.claude/"
     "projects/p/S1/workflows/scripts/hello-workflow-wf_dacbd480-d5d.js\nYou will be notified when it completes. "
     "Use /workflows to watch live progress.", None),
    ([{"type": "text", "text": LAUNCHED}], None),
    (LAUNCHED, LAUNCH),
    ("", {"status": "remote_launched", "taskId": "r1", "summary": "Sweep the docs", "sessionUrl": "https://x/s/1"}),
], ids=["transcript-dir", "run-id", "text-part", "structured", "remote"])
def test_a_workflow_launch_has_no_return_or_status(tmp_path, answer, structured):
    rules = ('eval 1\nexpect 1: no calls to "Workflow" with status error\n'
             'expect 2: no calls to "Workflow" have .return contains "failed"\n')
    grading = referee.grade(rules, _session(tmp_path, answer, False, structured), as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["error", "error"]
    assert any("warning[backgrounded]" in p and "s.jsonl:3" in p for p in grading["problems"]), grading["problems"]


def test_a_workflow_refused_is_not_backgrounded(tmp_path):
    grading = referee.grade('eval 1\nexpect 1: any calls to "Workflow" with status error\n',
                            _session(tmp_path, REFUSED, True, None), as_eval="1")[0].grading
    assert not any("backgrounded" in p for p in grading["problems"]), grading["problems"]
