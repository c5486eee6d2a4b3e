"""Claude Code's answer to a Task call says how many calls its subagent made
(``toolUseResult.totalToolUseCount``). A subagent transcript that holds fewer is cut
short or not the whole of that subagent's work: the calls it lacks may be the ones a
check forbids, so every check over the run's calls is an ERROR, never a pass on the
calls that were read. A transcript that holds as many, each answered, changes nothing;
with an answer that gives no count, a transcript that ends with the subagent at work
(its last step a call's answer: its last words, which its Task's answer gives, are not
there) may lack calls as well (``test_claude_code_subagent_at_work``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash" have .args.command contains "rm "\nexpect 2: response contains "Done"\n'


def _record(kind: str, uuid: str, content: object, **extra: object) -> dict:
    return {"type": kind, "sessionId": "s1", "uuid": uuid, "cwd": "/tmp/p",
            "message": {"id": f"m-{uuid}", "role": kind, "content": content}, **extra}


def _session(folder: Path, told: int | None, made: int) -> Path:
    """A session whose Task answer says its subagent made ``told`` calls, and the
    subagent's transcript beside it, holding ``made`` of them."""
    answer = {"status": "completed", "prompt": "Remove the build output", "agentId": "ab12345",
              "content": [{"type": "text", "text": "Removed."}], "totalDurationMs": 1000}
    if told is not None:
        answer["totalToolUseCount"] = told
    main = [
        _record("user", "u1", "Clean the repo"),
        _record("assistant", "a1", [{"type": "tool_use", "id": "t1", "name": "Task",
                                     "input": {"prompt": "Remove the build output", "subagent_type": "general-purpose"}}]),
        _record("user", "u2", [{"type": "tool_result", "tool_use_id": "t1",
                                "content": [{"type": "text", "text": "Removed."}]}], toolUseResult=answer),
        _record("assistant", "a2", [{"type": "text", "text": "Done."}]),
    ]
    agent = [_record("user", "x0", "Remove the build output", isSidechain=True, agentId="ab12345")]
    for k in range(made):
        agent.append(_record("assistant", f"x{k}a", [{"type": "tool_use", "id": f"b{k}", "name": "Bash",
                                                       "input": {"command": "ls"}}], isSidechain=True, agentId="ab12345"))
        agent.append(_record("user", f"x{k}r", [{"type": "tool_result", "tool_use_id": f"b{k}", "content": "build"}],
                             isSidechain=True, agentId="ab12345"))
    session = folder / "s1.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in main), encoding="utf-8")
    (folder / "s1" / "subagents").mkdir(parents=True)
    (folder / "s1" / "subagents" / "agent-ab12345.jsonl").write_text("".join(json.dumps(r) + "\n" for r in agent),
                                                                      encoding="utf-8")
    return session


def _graded(session: Path) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, session, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def test_a_subagent_transcript_with_fewer_calls_than_its_task_says_leaves_the_calls_unknown(tmp_path):
    outcomes, problems = _graded(_session(tmp_path, told=2, made=1))
    assert outcomes == ["error", "pass"]  # the reply is read whole all the same
    assert any("calls-may-be-missing" in p and "2 calls" in p and "holds 1" in p for p in problems), problems


@pytest.mark.parametrize("told, made", [(1, 1), (0, 1)], ids=["as-many", "more-than-told"])
def test_a_subagent_transcript_that_holds_what_its_task_says_is_read_as_it_is(tmp_path, told, made):
    outcomes, problems = _graded(_session(tmp_path, told=told, made=made))
    assert outcomes == ["pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems), problems


def test_a_subagent_transcript_at_work_whose_task_gives_no_count_leaves_the_calls_unknown(tmp_path):
    # Before, "no Bash rm" passed: the subagent "Removed." the build output after the one
    # `ls` its transcript holds, and the answer does not say how many calls it made.
    outcomes, problems = _graded(_session(tmp_path, told=None, made=1))
    assert outcomes == ["error", "pass"]
    assert any("calls-may-be-missing" in p and "subagent at work" in p for p in problems), problems
