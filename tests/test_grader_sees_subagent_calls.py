"""The LLM grader is shown the subagents' calls, as the rules see them: a Claude Code
run's subagent work is written to subagents/step-N.md, and the grader was shown only
the main transcript, where a Task call and a note of how many calls it made stand for
it. "The agent never ran a shell command" then passed on a run whose subagent ran
three, and a quote of one could not be verified."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.workspace import discover
from referee.llm_adapter.evidence import collect
from referee.llm_adapter.reply import AssertionReply, Quote
from referee.llm_adapter.verify import judge_item

STREAM = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-json-diagnostic"


def _run(tmp_path: Path):
    out = tmp_path / "ws"
    assert main(["import", "claude-code", str(STREAM / "claude-stream-json-simple.jsonl"), "--out", str(out)]) == 0
    return next(iter(discover(out).runs))


def test_the_subagents_calls_are_shown_in_their_files(tmp_path, capsys):
    run = _run(tmp_path)
    shown = [(s.file, s.step, s.label) for s in collect(run).of("tool_calls")]
    assert len(shown) == len(run.every_call.calls) == 21
    assert ("subagents/step-4.md", 1, "Bash") in shown and ("subagents/step-5.md", 6, "Glob") in shown
    bash = [s for s in collect(run).of("tool_calls") if s.label == "Bash"]
    assert [s.file for s in bash] == ["subagents/step-4.md"] * 3


def test_a_quote_of_a_subagents_call_is_verified_where_it_is(tmp_path, capsys):
    run = _run(tmp_path)
    reply = AssertionReply.model_validate({
        "id": "e1", "reasoning": "the subagent listed the root folder",
        "evidence": [Quote(source="tool_calls", quote='"command": "ls -la <cwd>"')], "verdict": "PASS"})
    verdict = judge_item(reply, collect(run))
    assert verdict.outcome.value == "pass", verdict.message
    assert [(e.file, e.line, e.step) for e in verdict.evidence] == [("subagents/step-4.md", 15, 3)]
