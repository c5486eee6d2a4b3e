"""A response named with --response that lies in outputs/ is shown to the grader once,
as the response: shown a second time as an output file, the same words would stand
in the record twice, under two sources of different weight."""

from __future__ import annotations

from referee.engine.judging import SemanticItem
from referee.engine.run.memory import memory_run
from referee.llm_adapter.evidence import collect
from referee.llm_adapter.prompt import render

FILES = {"outputs/answer.md": "Your booking LX2084 is confirmed.\n",
         "outputs/notes/summary.md": "Summary of the trip.\n"}


def shown(run) -> list[tuple[str, str]]:
    return [(s.source, s.file) for s in collect(run).segments]


def test_a_named_response_in_outputs_is_shown_once_as_the_response():
    run = memory_run(FILES, response="outputs/answer.md")
    assert shown(run) == [("response", "outputs/answer.md"), ("outputs", "outputs/notes/summary.md")]


def test_a_named_response_in_a_subfolder_of_outputs_is_shown_once():
    run = memory_run(FILES, response="outputs/notes/summary.md")
    assert shown(run) == [("response", "outputs/notes/summary.md"), ("outputs", "outputs/answer.md")]


def test_the_prompt_holds_the_named_response_once_under_response():
    run = memory_run(FILES, response="outputs/answer.md")
    text = render(collect(run), [SemanticItem("a", "The booking is confirmed", "")]).request.turns[0][1]
    assert text.count("Your booking LX2084 is confirmed.") == 1
    response_part = text.split("=== source: response ===")[1].split("=== source: outputs ===")[0]
    assert "--- outputs/answer.md line 1 ---\nYour booking LX2084 is confirmed." in response_part
