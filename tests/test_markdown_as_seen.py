"""A Markdown text holds, to its reader, the words its rendering shows: ``ve&#114;y``,
``ve**r**y``, ``ve<b>r</b>y`` and ``ve<!-- -->ry`` show "very", ``rm \\-rf`` shows
"rm -rf". A text test's miss that is a hit once the text is so shown is neither a miss
a reader grants nor a hit the text as written holds: an ERROR naming the file and the
line, never a pass of ``not (response contains "very")``. Code (fenced, or a code
span) shows what is written, and tool calls, JSON and plain text files are no
Markdown: there nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.run.workspace import load_run

REAL = Path(__file__).resolve().parent / "fixtures" / "real" / "human-narrative-workspace"


def _verdict(check: str, files: dict[str, str], run=None) -> str:
    run = run or memory_run(files)
    program = compile_rules([dsl.parse_rules(f"eval {json.dumps(run.id.eval_id)}\nexpect: {check}\n", "case.rules")])
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return f"{verdict.outcome.value}: {verdict.message}"


def _response(check: str, text: str) -> str:
    return _verdict(check, {"outputs/response.md": text})


SHOWN_AS_VERY = ["ve&#114;y", "ve&#x72;y", "ve&#X72;y", "ve**r**y", "ve*r*y", "ve~~r~~y", "**ve**ry",
                 "ve<b>r</b>y", "ve<span class=\"x\">r</span>y", "ve<!-- -->ry", "ve<!--\nnote\n-->ry",
                 "v&#101;ry", "ve&#8203;ry", "ve&shy;ry", "ve*r*\u200by"]


@pytest.mark.parametrize("written", SHOWN_AS_VERY)
def test_words_a_reader_sees_are_no_miss(written: str):
    found = _response('not (response contains "very")', f"Intro\n\nIt is {written} good.\n")
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found
    assert "response.md:3" in found, found


@pytest.mark.parametrize("check", ['not (response contains "rm -rf")', 'not (response matches /rm -rf/)',
                                   'not (response fully matches /Run rm -rf now\\.\\s*/)',
                                   'not (response starts with "Run rm -rf")',
                                   'not (response ends with "rm -rf now.\\n")'])
def test_a_backslash_escape_shows_the_punctuation(check: str):
    found = _response(check, "Run rm \\-rf now.\n")
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found


def test_the_message_names_the_markup_and_its_line():
    found = _response('not (response contains "very")', "# Title\n\n**Note**\n\nIt is ve&#114;y good.\n")
    assert '(the first, "&#114;", at response.md:5)' in found, found


def test_named_entities():
    assert _response('not (response contains "Q&A <b>")', "Q&amp;A &lt;b&gt;\n").startswith("error: ")
    assert _response('not (response contains "say \\"hi\\"")', "say &quot;hi&quot;\n").startswith("error: ")
    assert _response('not (response contains "a\u00a0b")', "a&nbsp;b\n").startswith("error: ")
    # no entity: shown as written
    assert _response('not (response contains "very")', "ve&bogus;ry &#114\n").startswith("pass")


@pytest.mark.parametrize("written", ["```\nve&#114;y\n```\n", "~~~text\nve**r**y\n~~~\n", "`ve&#114;y`\n",
                                     "``ve<b>r</b>y``\n", "    ```\nve&#114;y\n", "````\n```\nve&#114;y\n````\n"])
def test_code_shows_what_is_written(written: str):
    text = written.replace("    ```", "```")  # an unclosed fence runs to the end
    assert _response('not (response contains "very")', text).startswith("pass"), text


def test_code_spans_pair_only_equal_runs():
    # `` opens a span that only `` closes: the ` between is part of the code
    assert _response('not (response contains "very")', "``a ` ve&#114;y``\n").startswith("pass")
    # an unclosed run is written as it is; what follows is Markdown again
    assert _response('not (response contains "very")', "``a ve&#114;y\n").startswith("error")


def test_markdown_between_words_that_are_no_hit_changes_nothing():
    assert _response('not (response contains "very")', "It is **good**, 2 * 3.\n").startswith("pass")
    assert _response('response contains "very"', "It is ve**r**y good.\n").startswith("error")
    assert _response('response contains "good"', "It is ve**r**y good.\n").startswith("pass")
    # snake_case shows its underscores: no emphasis inside a word
    assert _response('not (response contains "snakecase")', "use snake_case_names\n").startswith("pass")
    assert _response('not (response contains "very")', "ve__r__y\n").startswith("pass")


def test_a_miss_never_becomes_a_hit():
    for check in ('response contains "very"', 'response matches /very/'):
        assert _response(check, "ve&#114;y\n").startswith("error"), check


def test_quantifiers_and_where_share_the_rule():
    text = "## Steps\n\n- first\n- ve**r**y last\n"
    found = _response('all lines(response) have not (. contains "very")', text)
    assert found.startswith("error") and "response.md:4" in found, found
    assert _response('not (section(response, "Steps") contains "very")', text).startswith("error")


def test_tool_calls_are_no_markdown():
    transcript = ('## [tool_calls] Step 1: run\nTool: Bash\nArgs: {"command": "rm \\\\-rf x &amp; ve**r**y"}\n'
                  'Return: ok\nStatus: success\n')
    found = _verdict('no calls where .args.command contains "rm -rf"', {"outputs/transcript.md": transcript})
    assert found.startswith("pass"), found
    found = _verdict('no calls where .args.command contains "very"', {"outputs/transcript.md": transcript})
    assert found.startswith("pass"), found


@pytest.mark.parametrize("name, markdown", [("notes.md", True), ("NOTES.MARKDOWN", True), ("notes.txt", False),
                                            ("data.json", False)])
def test_which_files_are_markdown(name: str, markdown: bool):
    content = json.dumps({"t": "ve**r**y"}) if name.endswith(".json") else "ve**r**y\n"
    found = _verdict(f'not (file "{name}" contains "very")', {f"outputs/{name}": content})
    assert found.startswith("error" if markdown else "pass"), found


def test_a_named_response_in_plain_text_is_no_markdown():
    run = memory_run({"outputs/answer.txt": "ve**r**y\n"}, response="outputs/answer.txt")
    assert _verdict('not (response contains "very")', {}, run).startswith("pass")
    run = memory_run({"outputs/answer.md": "ve**r**y\n"}, response="outputs/answer.md")
    assert _verdict('not (response contains "very")', {}, run).startswith("error")


def test_the_names_of_outputs_are_no_markdown():
    found = _verdict('no outputs where . contains "ab.md"', {"outputs/a*b.md": "x\n"})
    assert found.startswith("pass"), found


def test_the_final_result_of_a_real_executor_log():
    # "Goldratt's *The Goal*, 1984": the reader sees the title in italics, no asterisks
    run = load_run(REAL / "e1-with")
    found = _verdict('not (response contains "Goldratt\'s The Goal, 1984")', {}, run)
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found
    assert '"*", at transcript.md:69' in found, found
    assert _verdict('response contains "Goldratt\'s *The Goal*"', {}, run).startswith("pass")


# Texts without any character that starts Markdown markup: a check on a Markdown file
# gives the verdict and the words it gives on the same text in a plain text file, save
# an ERROR naming a line break of a paragraph, which shows as a space, or blanks, which
# show as one space.
_PLAIN = st.text(st.characters(blacklist_characters="&\\*_~<`[", blacklist_categories=("Cs",)), max_size=40)
_OPS = st.sampled_from(["contains", "starts with", "ends with", "contains_ci", "==", "!=_ci"])


@settings(max_examples=300, deadline=None)
@given(text=_PLAIN, part=_PLAIN, op=_OPS)
@example(text="a\nb", part="a b", op="contains")
@example(text="a  b", part="a b", op="contains")
@example(text="a\tb", part="a b", op="==")
def test_texts_without_markup_are_read_as_written(text: str, part: str, op: str):
    tail = " ignoring case" if op.endswith("_ci") else ""
    verb = op.removesuffix("_ci")
    found = {name: _verdict(f'not (file "{name}" {verb} {json.dumps(part)}{tail})', {f"outputs/{name}": text})
             for name in ("r.md", "r.txt")}
    shown_as_space = ("a line break" in found["r.md"] or "blanks shown as one space" in found["r.md"])
    joined = found["r.md"].startswith("error") and shown_as_space and " " in part
    assert joined or found["r.md"].replace("r.md", "r.txt") == found["r.txt"]


@pytest.mark.parametrize("check", ['trim(section(response, "Status")) != "Done"',
                                   'not (trim(section(response, "Status")) == "Done")',
                                   '"Done" != trim(section(response, "Status"))',
                                   'trim(section(response, "Status")) != "done" ignoring case'])
def test_equal_as_shown_is_undecided(check: str):
    found = _response(check, "# Report\n\n## Status\n\n**Done**\n")
    assert found.startswith("error: ") and "equal only as Markdown is shown" in found, found
    assert '"**", at response.md:5' in found, found


def test_equal_as_written_or_different_as_shown_is_decided():
    text = "## Status\n\n**Done**\n"
    assert _response('trim(section(response, "Status")) == "**Done**"', text).startswith("pass")
    assert _response('trim(section(response, "Status")) != "Failed"', text).startswith("pass")
    assert _response('trim(section(response, "Status")) > "Done"', text).startswith("fail")


_MARKDOWN = st.text(st.sampled_from(list("ver y&#;x72\\-*_~<>!b`\n")), max_size=30)


@settings(max_examples=300, deadline=None)
@given(text=_MARKDOWN, part=st.sampled_from(["very", "rm -rf", "v", "e r", "&", "*"]),
       op=st.sampled_from(["contains", "starts with", "ends with", "=="]))
def test_markdown_never_makes_a_miss_a_hit(text: str, part: str, op: str):
    found = {name: _verdict(f'not (file "{name}" {op} {json.dumps(part)})', {f"outputs/{name}": text})
             for name in ("r.md", "r.txt")}
    assert found["r.md"].startswith("error") or found["r.md"].replace("r.md", "r.txt") == found["r.txt"]
