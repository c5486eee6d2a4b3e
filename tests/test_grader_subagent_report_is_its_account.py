"""What a subagent answers the call that started it is its own account of its work,
the words of a model, not a tool's output: its calls, in subagents/step-N.md, are the
evidence of what it did. In the real stream-json session
(tests/fixtures/real/claude-code/stream-json-diagnostic), the Task call of step 5 came
back with the subagent's report ("`**/tests/**` - Alternative test directory
naming" among the patterns it says it searched), and a grader's PASS quoting it from
tool_calls stood as a tool's evidence. The report is now shown, and checked, as agent
notes: a PASS on it alone is a FAIL, while the subagent's own Glob call and the Task
call's arguments remain tool calls."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.workspace import discover
from referee.llm_adapter.evidence import collect
from referee.llm_adapter.reply import AssertionReply, Quote
from referee.llm_adapter.verify import judge_item

STREAM = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-json-diagnostic"
REPORT = "`**/tests/**` - Alternative test directory naming"


def _evidence(tmp_path: Path):
    out = tmp_path / "ws"
    assert main(["import", "claude-code", str(STREAM / "claude-stream-json-simple.jsonl"), "--out", str(out)]) == 0
    return collect(next(iter(discover(out).runs)))


def _verdict(evidence, source: str, quote: str):
    entry = AssertionReply(id="A1", reasoning="the agent searched for tests/ folders", verdict="PASS",
                           evidence=[Quote(source=source, quote=quote)])
    return judge_item(entry, evidence)


def test_a_pass_on_a_subagents_report_alone_is_not_a_pass(tmp_path, capsys):
    evidence = _evidence(tmp_path)
    assert _verdict(evidence, "tool_calls", REPORT).outcome.value == "fail"
    notes = _verdict(evidence, "agent_notes", REPORT)
    assert notes.outcome.value == "fail" and "agent notes" in notes.message
    assert [(e.file, e.line, e.step) for e in notes.evidence] == [("outputs/transcript.md", 36, 5)]


def test_the_subagents_calls_and_the_calls_arguments_stay_tool_calls(tmp_path, capsys):
    evidence = _evidence(tmp_path)
    glob = _verdict(evidence, "tool_calls", 'Args: {"pattern": "**/tests/**"}')
    assert glob.outcome.value == "pass", glob.message
    assert [(e.file, e.step) for e in glob.evidence] == [("subagents/step-5.md", 4)]
    args = _verdict(evidence, "tool_calls", '"prompt": "Locate all test files in this codebase.')
    assert args.outcome.value == "pass", args.message
    task = [s for s in evidence.of("tool_calls") if s.step == 5 and s.file == "outputs/transcript.md"]
    assert len(task) == 1 and "Return:" not in task[0].text and task[0].text.startswith("## [tool_calls] Step 5: Task")
