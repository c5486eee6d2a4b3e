"""An empty outputs/response.md hides no answer.

A skill-creator executor log gives its answer in ``## Final Result``; a harness
may leave an empty ``outputs/response.md`` beside it. The empty file was taken
for the response, so 'not response contains "SECRET"' passed over an answer the
log shows, and the run read as "response.md is missing or empty". An empty
response.md now gives way to the log's answer; one that holds text is still the
response, and a file named by --response is the response whatever it holds."""

from __future__ import annotations

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

LOG = """# Eval Execution Transcript

## Eval Prompt

Write a greeting.

## Execution

### Step 1: write
**Tool**: Write
**Result**: ok

## Final Result

Hello SECRET world.

## Issues

None
"""


def _outcome(check: str, files: dict[str, str], **options) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run(files, **options))
    return f"{verdict.outcome.value}: {verdict.message}"


def test_an_empty_response_file_gives_way_to_the_log_answer():
    for empty in ("", "\n", "  \r\n"):
        files = {"outputs/transcript.md": LOG, "outputs/response.md": empty}
        found = _outcome('not response contains "SECRET"', files)
        assert found.startswith("fail") and "transcript.md:15" in found, found
        assert _outcome("response is not empty", files).startswith("pass")


def test_a_response_file_that_holds_text_is_still_the_response():
    files = {"outputs/transcript.md": LOG, "outputs/response.md": "Hello world.\n"}
    assert _outcome('not response contains "SECRET"', files).startswith("pass")


def test_an_empty_response_file_beside_no_log_is_still_empty():
    files = {"outputs/transcript.md": "## [tool_calls] Step 1: Write\nTool: Write\nArgs: {}\nReturn: {}\n"
             "Status: success\n", "outputs/response.md": ""}
    assert _outcome("response is empty", files).startswith("pass")


def test_a_named_response_file_is_the_response_even_when_empty():
    files = {"outputs/transcript.md": LOG, "outputs/response.md": ""}
    assert _outcome("response is empty", files, response="outputs/response.md").startswith("pass")
