"""An executor log's ``## Final Result`` section, which is the run's response, is shown
to the grader once, as the response: shown again among the log's notes, the same
words would stand in the record twice, under two sources of different weight."""

from __future__ import annotations

from referee.engine.run.memory import memory_run
from referee.llm_adapter.evidence import collect

LOG = ("# Executor log\n\n### Step 1: Read the file\n**Tool**: Read\n**Result**: ok\n\n"
       "## Final Result\n\nYour booking LX2084 is confirmed for Ana.\n\n### Next steps\n"
       "Your e-ticket arrives by mail.\n")


def test_the_final_result_is_shown_once_as_the_response():
    run = memory_run({"outputs/transcript.md": LOG})
    assert run.response is not None and run.response.section == "## Final Result"
    segments = collect(run).segments
    holding = [(s.source, s.line) for s in segments if "LX2084" in s.text or "e-ticket" in s.text]
    assert holding == [("response", 9)]
    assert [(s.source, s.line) for s in segments if s.source == "agent_notes"] == [("agent_notes", 1),
                                                                                   ("agent_notes", 3)]


def test_a_log_with_a_response_file_keeps_its_final_result_among_the_notes():
    # the response is response.md: the log's section is the agent's account, shown as such
    run = memory_run({"outputs/transcript.md": LOG, "outputs/response.md": "Booked.\n"})
    sources = [(s.source, s.line) for s in collect(run).segments if "LX2084" in s.text]
    assert sources == [("agent_notes", 7)]
