"""A request the user interrupted before the agent said or did anything (``[Request
interrupted by user]`` right after it, no message of the agent between) ended that
turn there: no call of it is missing, as after an API error Claude Code wrote in the
model's place. The words before it answer an earlier turn, so the response is unknown
(``no-reply``). In a subagent's transcript, such an interrupt ends the subagent's work:
Claude Code 2.1 starts a prompt-suggestion agent (``agent-aprompt_suggestion-*.jsonl``
under ``<session>/subagents/``) after a reply, and one interrupted before it answered
was never at work."""

from __future__ import annotations

import json
from pathlib import Path

from openai_chat import checks_graded

REAL = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "permission-dialog-edit-refused"
        / "c2fc3a3f-66d5-4c87-9f78-1a31dd719471.jsonl")
CALLS = ['count(calls) == 3', 'exactly 1 calls to "Edit" with status error', "no calls with status error",
         'no calls to "Bash"']


def test_a_prompt_suggestion_agent_interrupted_before_it_answered_leaves_the_calls_known():
    # Before, its prompt read as one it was still at work on: every check over the
    # session's three calls was an ERROR (calls-may-be-missing), the refused Edit unseen.
    outcomes, problems = checks_graded(REAL, CALLS)
    assert outcomes == ["pass", "pass", "fail", "pass"]
    assert not any("calls-may-be-missing" in problem for problem in problems)
    assert any("unattached-subagent" in problem and "aprompt_suggestion-dcd338" in problem for problem in problems)


def _session(tmp_path: Path, *texts: str) -> Path:
    """A session of user records, and the agent's reply "Done." after the first."""
    base = {"sessionId": "s1", "cwd": "/w", "version": "2.1.29", "isSidechain": False, "userType": "external"}
    records = []
    for n, text in enumerate(texts):
        records.append({**base, "type": "user", "uuid": f"u{n}", "message": {"role": "user", "content": text}})
        if n == 0:
            records.append({**base, "type": "assistant", "uuid": "a0", "message": {
                "id": "m0", "role": "assistant", "content": [{"type": "text", "text": "Done."}]}})
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return source


def test_a_request_interrupted_before_the_agent_answered_ended_its_turn(tmp_path: Path):
    source = _session(tmp_path, "Say done.", "Now edit it.", "[Request interrupted by user]")
    outcomes, problems = checks_graded(source, ['no calls to "Bash"', 'response contains "Done"'])
    assert outcomes == ["pass", "error"]  # "Done." answered the first request, not the one interrupted
    assert not any("calls-may-be-missing" in problem for problem in problems)
    assert any(problem.startswith("session.jsonl:3: ") and "no-reply" in problem and "interrupted" in problem
               for problem in problems)


def test_a_request_after_the_interrupt_is_still_owed_an_answer(tmp_path: Path):
    source = _session(tmp_path, "Say done.", "Now edit it.", "[Request interrupted by user]", "Edit it after all.")
    outcomes, problems = checks_graded(source, ['no calls to "Bash"', 'response contains "Done"'])
    assert outcomes == ["error", "error"]
    assert any(problem.startswith("session.jsonl:5: ") and "calls-may-be-missing" in problem for problem in problems)
