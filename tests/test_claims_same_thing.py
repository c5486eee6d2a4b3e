"""A claim is verified only by evidence about the same thing, and its evidence
names the original source of an imported run."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.facts.claims import find_claims
from referee.engine.run.importers import conversations
from referee.engine.run.importers.writer import render_run
from referee.engine.run.memory import memory_run


def _call(step: int, tool: str, args: dict, result) -> str:
    return (f"## [tool_calls] Step {step}: {tool}\nTool: {tool}\nArgs: {json.dumps(args)}\n"
            f"Return: {json.dumps(result)}\nStatus: success\n\n")


def _claims(transcript: str, response: str) -> list[tuple[str, bool]]:
    run = memory_run({"outputs/transcript.md": transcript, "outputs/response.md": response})
    return [(c.claim, c.verified) for c in find_claims(run)]


def test_a_number_in_a_subagents_description_backs_nothing():
    transcript = _call(1, "Task", {"description": "Run the 100 slowest tests", "prompt": "go"}, "done")
    assert _claims(transcript, "Coverage of the new code is 100% now.\n") == [("the response states 100", False)]


def test_a_percentage_is_backed_by_a_percentage_or_a_source_about_it():
    counts = _call(1, "Bash", {"command": "pytest --cov"}, {"tests": 100, "coverage_percent": 87})
    assert _claims(counts, "Coverage is 100%.\n") == [("the response states 100", False)]
    assert _claims(counts, "Coverage is 87%.\n") == [("the response states 87", True)]
    log = _call(1, "Bash", {"command": "pytest --cov"}, "TOTAL  412  0  100%")
    assert _claims(log, "Coverage is 100%.\n") == [("the response states 100", True)]


def test_a_number_in_a_tools_sentence_needs_a_word_in_common():
    transcript = _call(1, "Bash", {"command": "ls"}, "found 42 files in 3 folders")
    assert _claims(transcript, "All 42 tests pass.\n") == [("the response states 42", False)]
    assert _claims(transcript, "I found 42 files.\n") == [("the response states 42", True)]


def test_a_bare_value_still_backs_a_bare_number():
    transcript = _call(1, "quote", {"route": "ZRH-LIS"}, {"price_eur": "189.00"})
    assert _claims(transcript, "The fare is 189.00 EUR.\n") == [("the response states 189.00", True)]


def test_claims_of_an_imported_run_name_the_source(tmp_path: Path):
    messages = [{"role": "user", "content": "price?"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "quote", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c", "content": json.dumps({"price_eur": 189})},
                {"role": "assistant", "content": "It costs 189 EUR."}]
    (tmp_path / "m.json").write_text(json.dumps(messages, indent=2), encoding="utf-8")
    (found,) = conversations("openai", [tmp_path / "m.json"])
    run = memory_run(render_run(found).files)
    (claim,) = find_claims(run)
    assert claim.verified and "transcript.md" not in claim.evidence and "response.md" not in claim.evidence
    assert claim.evidence.startswith('m.json:')


def test_words_that_end_in_ss_or_us_are_no_plurals():
    # "pass" and "passed" are one word; "status" and "statuses" too ("pass" once read as "pas").
    log = _call(1, "Bash", {"command": "pytest"}, "===== 12 passed in 0.51s =====")
    assert _claims(log, "All 12 tests pass.\n") == [("the response states 12", True)]
    assert _claims(log, "All 12 tests passed.\n") == [("the response states 12", True)]
    other = _call(1, "Bash", {"command": "ls"}, "12 classes found")
    assert _claims(other, "All 12 tests pass.\n") == [("the response states 12", False)]


def test_the_stem_keeps_words_ending_in_ss_or_us():
    from referee.engine.facts.claim_lookup import stem

    assert stem("pass") == stem("passed") == stem("passes") == "pass"
    assert stem("status") == stem("statuses") == "status"
    assert stem("tests") == stem("test") == "test"
