"""A subagent's transcript that ends with its prompt, which no message of the subagent
answers (Claude Code 2.1's ``Agent`` call launched in the background returns at once, so a
session copied while the subagent works holds no more of it; a transcript cut short
too), does not hold the subagent's work: its calls are unknown, so every check over the
run's calls is an ERROR, never a pass on the calls that were read. A subagent that
answered its prompt with words is read as it is; one whose transcript ends at work (its
last step a call's answer) is still at work: its later calls are unknown too
(``test_claude_code_subagent_at_work``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: response contains "launched"\n'
PROMPT = "Repeat the last line of this briefing.\nEND"


def _record(kind: str, uuid: str, content: object, **extra: object) -> dict:
    return {"type": kind, "sessionId": "s1", "uuid": uuid, "cwd": "/tmp/p",
            "message": {"id": f"m-{uuid}", "role": kind, "content": content}, **extra}


def _session(folder: Path, subagent: list[dict]) -> Path:
    """A session whose Agent call launched its subagent in the background, and the
    subagent's transcript beside it, holding ``subagent`` after its prompt."""
    answer = {"isAsync": True, "status": "async_launched", "agentId": "a1234", "prompt": PROMPT}
    main = [
        _record("user", "u1", "Start an agent on the briefing"),
        _record("assistant", "a1", [{"type": "tool_use", "id": "t1", "name": "Agent",
                                     "input": {"prompt": PROMPT, "subagent_type": "general-purpose"}}]),
        _record("user", "u2", [{"type": "tool_result", "tool_use_id": "t1",
                                "content": [{"type": "text", "text": "Async agent launched successfully."}]}],
                toolUseResult=answer),
        _record("assistant", "a2", [{"type": "text", "text": "The agent was launched."}]),
    ]
    agent = [_record("user", "x0", PROMPT, isSidechain=True, agentId="a1234")] + subagent
    session = folder / "s1.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in main), encoding="utf-8")
    (folder / "s1" / "subagents").mkdir(parents=True)
    (folder / "s1" / "subagents" / "agent-a1234.jsonl").write_text("".join(json.dumps(r) + "\n" for r in agent),
                                                                    encoding="utf-8")
    return session


def _graded(session: Path) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, session, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_subagent_transcript_that_ends_with_its_unanswered_prompt_leaves_the_calls_unknown(tmp_path):
    outcomes, problems = _graded(_session(tmp_path, []))
    assert outcomes == ["error", "pass"]  # the main agent's reply is read whole all the same
    assert any("calls-may-be-missing" in p and p.startswith("agent-a1234.jsonl:1:") for p in problems), problems


ANSWERED = {
    "words": [_record("assistant", "x1", [{"type": "text", "text": "END"}], isSidechain=True, agentId="a1234")],
    "work, then words": [
        _record("assistant", "x1", [{"type": "tool_use", "id": "b1", "name": "Read", "input": {"file_path": "b"}}],
                isSidechain=True, agentId="a1234"),
        _record("user", "x2", [{"type": "tool_result", "tool_use_id": "b1", "content": "END"}],
                isSidechain=True, agentId="a1234"),
        _record("assistant", "x3", [{"type": "text", "text": "END"}], isSidechain=True, agentId="a1234")],
    # an API error Claude Code wrote in the subagent's place ended its turn: nothing of it is missing
    "an API error": [{**_record("assistant", "x1", [{"type": "text", "text": "API Error: 529 Overloaded"}],
                                isSidechain=True, agentId="a1234", isApiErrorMessage=True),
                      "message": {"id": "m-x1", "role": "assistant", "model": "<synthetic>",
                                  "content": [{"type": "text", "text": "API Error: 529 Overloaded"}]}}],
}
# The subagent's transcript so far: its prompt answered with a call, whose answer goes
# back to the subagent, which was still at work in the background
AT_WORK = ANSWERED["work, then words"][:2]


@pytest.mark.parametrize("answer", sorted(ANSWERED))
def test_a_subagent_that_answered_its_prompt_is_read_as_it_is(tmp_path, answer):
    outcomes, problems = _graded(_session(tmp_path, ANSWERED[answer]))
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems), problems


def test_a_subagent_still_at_work_in_the_background_leaves_the_calls_unknown(tmp_path):
    # Before, "no calls to Bash" passed on the one Read call the transcript held so far.
    outcomes, problems = _graded(_session(tmp_path, AT_WORK))
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in p and "subagent at work" in p and p.startswith("agent-a1234.jsonl:3:")
               for p in problems), problems
