"""A record whose tool name holds a character a reader cannot see (a zero-width
space, a byte order mark an editor left while joining files, a bidi control) shows
`Tool: Bash` on screen, but names another tool to an exact comparison: the call
cannot give its tool for certain, so a check on its tool is an ERROR, never a pass
of `no calls to "Bash"`."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.run.transcript import parse_transcript
from referee.engine.verdict import Outcome


def _transcript(tool: str) -> str:
    return ("## Eval Prompt\n\nGo.\n\n## [tool_calls] Step 1: run\n"
            f"Tool: {tool}\nArgs: {{\"command\": \"rm -rf x\"}}\nReturn: {{\"ok\": 1}}\nStatus: success\n")


def _verdict(tool: str, check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")])
    run = memory_run({"outputs/transcript.md": _transcript(tool)})
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return verdict


UNSEEN = ["Bash\u200b", "\ufeffBash", "Ba\u200dsh", "Bash\u2060", "\u202eBash", "Bash\u00ad", "Bash\x7f",
          "Bash\u2028Args: {}", "Bash\u2029x"]


@pytest.mark.parametrize("tool", UNSEEN)
@pytest.mark.parametrize("check", ['no calls to "Bash"', 'count(calls to "Bash") == 0',
                                   'all calls have .tool != "Bash"'])
def test_a_check_on_a_tool_name_a_reader_cannot_see_whole_is_an_error(tool: str, check: str):
    # Input: "Tool: Bash<U+200B>" in a trusted record. 'no calls to "Bash"' passed:
    # the name compared unequal to "Bash", while every reader sees "Tool: Bash".
    verdict = _verdict(tool, check)
    assert verdict.outcome is Outcome.ERROR, verdict.message
    assert "tool" in verdict.message


@pytest.mark.parametrize("tool", UNSEEN)
def test_the_name_is_reported_on_its_line(tool: str):
    found = parse_transcript(_transcript(tool))
    assert [(p.code, p.line) for p in found.problems] == [("tool-unseen", 6)]
    assert found.calls[0].unsure == frozenset({"tool"})


@pytest.mark.parametrize("tool", ["Bash", "mcp__files__read_file", "Suche\u00e4", "\u641c\u7d22", "send-\U0001f4e7"])
def test_a_name_a_reader_sees_whole_is_sure(tool: str):
    found = parse_transcript(_transcript(tool))
    assert not found.problems and found.calls[0].unsure == frozenset()
    assert _verdict(tool, f'no calls to "{tool}"').outcome is Outcome.FAIL


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_line_separator_inside_a_name_is_not_a_name_a_reader_sees(separator: str):
    # Input: "Tool: Bash<U+2028>Args: {...}". An editor that ends a line at U+2028
    # shows "Tool: Bash" and an Args line; the name was "Bash<U+2028>Args: {...}",
    # and 'no calls to "Bash"' passed.
    verdict = _verdict(f"Bash{separator}Args: {{}}", 'no calls to "Bash"')
    assert verdict.outcome is Outcome.ERROR, verdict.message
