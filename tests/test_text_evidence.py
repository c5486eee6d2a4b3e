"""A text test cites the line of its match, in the file as written; a miss cites the
text that was searched and quotes none of its lines."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

TRANSCRIPT = """## Eval Prompt

Do it.

## [agent_notes] Step 1: long

line a
line b
line c
here is TARGET text
line e

## [tool_calls] Step 2: Bash
Tool: Bash
Args: {"command": "echo hi\\nthere TARGET2"}
Return: "first\\nsecond\\nthird TARGET3\\n"
Status: success
"""


def verdicts(files: dict[str, str], rules: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\n{rules}", "t.rules")])
    run = memory_run(files)
    return list(evaluate(program.for_run(run.id, run.metadata), run))


def places(verdict):
    return [(e.file, e.line, e.quote) for e in verdict.evidence]


def test_a_match_inside_a_note_cites_its_own_line():
    [verdict] = verdicts({"outputs/transcript.md": TRANSCRIPT}, 'expect: any notes have .text contains "TARGET"')
    assert ("outputs/transcript.md", 10, "here is TARGET text") in places(verdict)
    assert "(transcript.md:10)" in verdict.message


def test_a_match_in_a_one_line_json_string_cites_that_line():
    [args, ret] = verdicts({"outputs/transcript.md": TRANSCRIPT},
                           'expect: any calls have .args.command contains "TARGET2"\n'
                           'expect: any calls have .return contains "TARGET3"')
    assert ("outputs/transcript.md", 15, "there TARGET2") in places(args)
    assert ("outputs/transcript.md", 16, "third TARGET3") in places(ret)


def test_a_miss_cites_the_searched_text_without_quoting_a_line():
    [verdict] = verdicts({"outputs/response.md": "one\ntwo\nthree\n"}, 'expect: response contains "MISSING"')
    assert places(verdict) == [("outputs/response.md", None, "")]


@settings(max_examples=60)
@given(blank=st.integers(0, 3), before=st.lists(st.sampled_from(["alpha", "beta", "", "gamma TARGE"]), max_size=6),
       after=st.lists(st.sampled_from(["delta", "", "TARGET again"]), max_size=4))
def test_the_cited_line_holds_the_quote(blank: int, before: list[str], after: list[str]):
    body = "\n" * blank + "\n".join([*before, "the TARGET line", *after])
    text = f"## Eval Prompt\n\nGo.\n\n## [agent_notes] Step 1: n\n{body}\n"
    [verdict] = verdicts({"outputs/transcript.md": text, "outputs/response.md": body + "\n"},
                         'expect: any notes have .text contains "TARGET"')
    lines = text.split("\n")
    hits = [e for e in verdict.evidence if e.line is not None and "TARGET" in e.quote]
    assert hits
    for item in hits:
        assert item.quote in lines[item.line - 1]


def test_a_line_is_ended_by_a_line_break_alone():
    """A form feed or U+2028 sits inside a line of the file: the cited line is the one
    an editor, a CI annotation and the viewer show (str.splitlines counted more)."""
    response = "intro\x0cDone: everything PASSED\r\nmore\u2028x\nDone wrong\n"
    [verdict] = verdicts({"outputs/response.md": response}, 'expect: not response contains "Done wrong"')
    assert ("outputs/response.md", 3, "Done wrong") in places(verdict)
