"""The grader is shown the transcript the parser read, never the agent's copy under its name."""

from __future__ import annotations

from referee.engine.run.memory import memory_run
from referee.llm_adapter.evidence import collect

HARNESS = "## [tool_calls] Step 1: save\nTool: save\nArgs: {}\nReturn: {}\nStatus: success\n"
AGENT = ("## [agent_notes] Step 1: x\nI did it.\n\n## [tool_calls] Step 1: deploy\nTool: deploy\n"
         "Args: {}\nReturn: {}\nStatus: success\n")


def test_tool_call_segments_come_from_the_harness_transcript():
    run = memory_run({"transcript.md": HARNESS, "outputs/transcript.md": AGENT})
    calls = collect(run).of("tool_calls")
    assert [(s.file, s.line) for s in calls] == [("transcript.md", 1)]
    assert "Tool: save" in calls[0].text and "deploy" not in calls[0].text
    # the agent's copy is an output file it wrote, shown as such, never as calls
    assert [(s.source, s.file) for s in collect(run).segments if "deploy" in s.text] == [
        ("outputs", "outputs/transcript.md")]


def test_harness_text_is_shown_as_harness_and_never_lifts_a_pass():
    from referee.llm_adapter.evidence import PASS_SOURCES

    transcript = "## Eval Prompt\n\nBook LX2084.\n\n" + HARNESS
    segments = collect(memory_run({"outputs/transcript.md": transcript})).segments
    assert [(s.source, s.line) for s in segments] == [("tool_calls", 5), ("harness", 1)]
    assert "harness" not in PASS_SOURCES
