"""A lone carriage return ends a line for the grader's evidence as it does for the
transcript's parser (``engine.text.file_lines``): the blocks the grader is shown, and
the lines its quotes are cited at, are the parser's."""

from __future__ import annotations

from llm_server import OneReply, small_run, verdicts

from referee.engine.judging import SemanticItem
from referee.engine.verdict import Outcome
from referee.llm_adapter.evidence import collect
from referee.llm_adapter.judge import LLMJudge

NOTES_CLAIM = "I booked flight LX2084 and emailed the confirmation."
TRANSCRIPT = ("## [agent_notes] Step 1: plan\rI will search.\rThen book.\rMore notes.\rEven more.\r\n"
              "\n## [tool_calls] Step 2: search\nTool: search_flights\nArgs: {\"to\": \"LIS\"}\n"
              "Return: {\"flight\": \"LX2084\"}\nStatus: success\n\n"
              f"## [agent_notes] Step 3: done\n{NOTES_CLAIM}\n")
ITEM = SemanticItem("1#1", "The flight LX2084 was booked", "booked")



def test_a_tool_call_block_ends_where_the_parser_ends_it():
    run = small_run({"transcript.md": TRANSCRIPT, "response.md": "Done.\n"})
    calls = collect(run).of("tool_calls")
    assert [(s.line, s.step) for s in calls] == [(7, 2)]
    assert calls[0].text.startswith("## [tool_calls] Step 2: search\nTool: search_flights")
    assert NOTES_CLAIM not in calls[0].text
    notes = {s.step: s for s in collect(run).of("agent_notes")}
    assert NOTES_CLAIM in notes[3].text and notes[3].line == 13
    assert "[tool_calls]" not in notes[1].text


def test_agent_notes_quoted_as_tool_calls_carry_no_pass():
    run = small_run({"transcript.md": TRANSCRIPT, "response.md": "Done.\n"})
    reply = verdicts(("booked", [("tool_calls", NOTES_CLAIM)], "PASS"))
    verdict = LLMJudge(OneReply(reply)).grade(run, (ITEM,)).verdicts["1#1"]
    assert verdict.outcome is Outcome.FAIL
    assert "not in tool_calls" in verdict.message


def test_quotes_from_the_response_and_outputs_are_cited_at_their_line():
    run = small_run({"response.md": "Hello.\rYour flight is booked.\rFlight LX2084 departs at 10:00.\r",
                     "notes.txt": "a\r\nb\rFlight LX2084 departs at 10:00 sharp\r"})
    reply = verdicts(("booked", [("response", "Flight LX2084 departs at 10:00."),
                                 ("outputs", "Flight LX2084 departs at 10:00 sharp")], "PASS"))
    verdict = LLMJudge(OneReply(reply)).grade(run, (ITEM,)).verdicts["1#1"]
    assert verdict.outcome is Outcome.PASS
    assert [(e.file, e.line) for e in verdict.evidence] == [("outputs/response.md", 3), ("outputs/notes.txt", 3)]
