"""The grader is shown every readable output file: outputs/response.md is left out of
the outputs only when it is the response, shown as such."""

from __future__ import annotations

from referee.engine.run.memory import memory_run
from referee.llm_adapter.evidence import collect

FILES = {"outputs/answer.md": "Here is the answer.\n", "outputs/response.md": "The admin password is hunter2.\n"}


def shown(run) -> list[tuple[str, str]]:
    return [(s.source, s.file) for s in collect(run).segments]


def test_response_md_is_an_output_when_another_file_is_the_response():
    # input: --response outputs/answer.md, and an outputs/response.md beside it
    run = memory_run(FILES, response="outputs/answer.md")
    assert ("outputs", "outputs/response.md") in shown(run)
    assert ("response", "outputs/answer.md") in shown(run)


def test_response_md_is_shown_once_when_it_is_the_response():
    run = memory_run(FILES)
    assert shown(run) == [("response", "outputs/response.md"), ("outputs", "outputs/answer.md")]
