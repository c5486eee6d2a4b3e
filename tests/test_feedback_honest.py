"""eval_feedback says only what the runs show: a check that only forbids and passed
in a run that did no work while other runs of the eval worked is flagged, and never
in an eval none of whose runs makes a call; a subagent's calls count as calls; an
argument field is not said to be missing where calls could not be read."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.cli import main

RULES = """eval 1 "draft"
expect "the link has no placeholder": not response contains "{fdId}"
expect "the reply is there": response is not empty
expect "nothing is deleted": count(calls to "deleteDoc") == 0
expect "the draft is saved": any calls to "saveDoc"
"""


def _call(step: int, tool: str) -> str:
    return (f"## [tool_calls] Step {step}: {tool}\nTool: {tool}\nArgs: {{\"id\": 1}}\nReturn: {{\"ok\": true}}\n"
            "Status: success\n\n")


def _run(root: Path, rel: str, transcript: str | None, response: str) -> None:
    outputs = root / rel / "outputs"
    outputs.mkdir(parents=True)
    if transcript is not None:
        (outputs / "transcript.md").write_text(transcript, encoding="utf-8")
    (outputs / "response.md").write_text(response, encoding="utf-8")


def _suggestions(where: Path, rules: str = RULES) -> list[tuple[str, str]]:
    (first, *_) = referee.grade(rules, where)
    return [(s["assertion"], s["reason"]) for s in first.grading["eval_feedback"]["suggestions"]]


def _idle(suggestions: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(text, reason) for text, reason in suggestions if "that made no tool call" in reason]


def test_a_forbidding_check_passed_by_a_run_that_made_no_call_while_others_did_is_flagged(tmp_path: Path):
    worked = "## Eval Prompt\n\nSave a draft.\n\n" + _call(1, "getInvoice") + _call(2, "saveDoc")
    _run(tmp_path, "eval-1/with_skill/run-1", worked, "Saved: https://x/view?fdId=a1\n")
    _run(tmp_path, "eval-1/without_skill/run-1", worked, "Saved: https://x/view?fdId={fdId}\n")
    idle = "## Eval Prompt\n\nSave a draft.\n\n## [agent_notes] Step 1: plan\nI saved the draft.\n"
    _run(tmp_path, "eval-1/without_skill/run-2", idle, "I saved your draft.\n")
    flagged = _idle(_suggestions(tmp_path))
    # the placeholder check and the count of deletes only forbid; "is not empty" and
    # "any calls" need something there, and the latter failed in the idle run anyway
    assert [text for text, _ in flagged] == ["the link has no placeholder", "nothing is deleted"]
    reason = flagged[0][1]
    assert "passed in 1 run that made no tool call (eval-1/without_skill/run-2)" in reason
    assert "while 2 other runs of this eval made some" in reason


def test_runs_of_a_text_skill_that_never_make_calls_are_not_flagged(tmp_path: Path):
    notes = "## Eval Prompt\n\nRewrite it.\n\n## [agent_notes] Step 1: rewrite\nDone.\n"
    _run(tmp_path, "eval-1/with_skill/run-1", notes, "A plain text.\n")
    _run(tmp_path, "eval-1/without_skill/run-1", notes, "Another text.\n")
    _run(tmp_path, "eval-1/without_skill/run-2", None, "No transcript at all.\n")
    assert _idle(_suggestions(tmp_path)) == []


def test_a_run_without_a_record_of_calls_is_not_a_run_that_made_none(tmp_path: Path):
    worked = "## Eval Prompt\n\nSave a draft.\n\n" + _call(1, "saveDoc")
    _run(tmp_path, "eval-1/with_skill/run-1", worked, "Saved.\n")
    _run(tmp_path, "eval-1/without_skill/run-1", None, "Saved, I think.\n")  # no transcript: calls unknown
    assert _idle(_suggestions(tmp_path)) == []


def _session(path: Path) -> None:
    """A Claude Code session whose only Bash call is made by a subagent."""
    def line(kind: str, message: dict, uuid: str, parent: str | None, side: bool = False, **extra) -> str:
        record = {"parentUuid": parent, "isSidechain": side, "cwd": "/work/p", "sessionId": "s", "type": kind,
                  "message": message, "uuid": uuid, "timestamp": "2026-01-01T00:00:00Z", **extra}
        return json.dumps(record) + "\n"

    def said(mid: str, content: list) -> dict:
        return {"id": mid, "role": "assistant", "content": content, "stop_reason": "end_turn",
                "usage": {"input_tokens": 1, "output_tokens": 1}}

    task = {"type": "tool_use", "id": "t1", "name": "Task", "input": {"description": "clean", "prompt": "clean"}}
    bash = {"type": "tool_use", "id": "b1", "name": "Bash", "input": {"command": "rm -rf build"}}
    path.write_text(
        line("user", {"role": "user", "content": "Clean the build"}, "u1", None)
        + line("assistant", said("m1", [task]), "a1", "u1")
        + line("user", {"role": "user", "content": "clean"}, "s1", None, True, agentId="g1")
        + line("assistant", said("m2", [bash]), "s2", "s1", True, agentId="g1")
        + line("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b1", "content": ""}]},
               "s3", "s2", True, agentId="g1")
        + line("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]},
               "u2", "a1", toolUseResult={"agentId": "g1"})
        + line("assistant", said("m3", [{"type": "text", "text": "Cleaned."}]), "a2", "u2"),
        encoding="utf-8")


def test_a_subagents_calls_are_calls_the_feedback_sees(tmp_path: Path, capsys):
    _session(tmp_path / "clean.jsonl")
    assert main(["import", "claude-code", str(tmp_path / "clean.jsonl"), "--out", str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    rules = 'eval "clean"\nexpect 1: no calls to "Bash" have .args.command contains "rm -rf /"\n'
    # the subagent called Bash with a command: no "no run called Bash", no "no call has args.command"
    assert _suggestions(tmp_path / "ws", rules) == []


def test_an_argument_field_is_not_said_missing_where_no_call_could_be_read():
    real = Path(__file__).parent / "fixtures" / "real" / "human-narrative-workspace"
    suggestions = _suggestions(real, (real / "narrative.rules").read_text(encoding="utf-8"))
    assert suggestions and not [reason for _, reason in suggestions if reason.startswith("reads args.")]
