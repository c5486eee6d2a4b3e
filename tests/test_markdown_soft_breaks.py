"""A line break between two lines of one Markdown paragraph shows as one space, the
next line's leading spaces left out: ``The migration is`` and ``done`` on two lines
show "The migration is done". A text test that misses as written and hits once the
paragraph's lines are so joined is an ERROR naming the line break, of the check and of
its negation alike; a blank line, a hard break, a line that starts a block and fenced
code join nothing, and words that hold no space are never read so."""

from __future__ import annotations

import json

import pytest

from referee import dsl
from referee.engine.checks import markdown_seen
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

WRAPPED = "# Report\n\nThe migration is\ndone and nothing\nelse changed.\n"


def _response(check: str, text: str, name: str = "outputs/response.md") -> str:
    run = memory_run({name: text}, response=name)
    program = compile_rules([dsl.parse_rules(f"eval {json.dumps(run.id.eval_id)}\nexpect: {check}\n", "case.rules")])
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return f"{verdict.outcome.value}: {verdict.message}"


@pytest.mark.parametrize("check", ['response contains "migration is done"',
                                   'not (response contains "migration is done")',
                                   'response contains "nothing else changed."',
                                   'response matches /is done and/', 'not (response matches /done\\s+and nothing else/)',
                                   'response ends with "nothing else changed.\\n"',
                                   'section(response, "Report") starts with "The migration is done"',
                                   'section(response, "Report") fully matches /The migration is done .*/'])
def test_a_soft_line_break_shows_as_a_space(check: str):
    found = _response(check, WRAPPED)
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found
    assert "(the first, a line break, at response.md:" in found, found


def test_the_message_names_the_break_and_its_line():
    found = _response('not (response contains "nothing else")', WRAPPED)
    assert "(the first, a line break, at response.md:4)" in found, found


@pytest.mark.parametrize("text", ["The migration is\n   done.\n", "The migration is \ndone.\n",
                                  "The migration is\r\n\tdone.\r\n", "- The migration is\n  done.\n",
                                  "The **migration** is\ndone.\n", "<!-- note -->\nThe migration is\ndone.\n",
                                  # an HTML block's lines are passed to the browser, which shows a line break as a space
                                  "<div>\nThe migration is\ndone.\n</div>\n"])
def test_spaces_around_the_break_are_left_out(text: str):
    found = _response('not (response contains "migration is done.")', text)
    assert found.startswith("error: ") and "a line break" in found, found


@pytest.mark.parametrize("text", ["The migration is\n\ndone.\n", "The migration is  \ndone.\n",
                                  "The migration is\\\ndone.\n", "# The migration is\ndone.\n",
                                  "The migration is\n# done.\n", "The migration is\n- done.\n",
                                  "The migration is\n1. done.\n", "The migration is\n> done.\n",
                                  "The migration is\n```\ndone.\n```\n", "```\nThe migration is\ndone.\n```\n",
                                  "The migration is\n---\ndone.\n", "The migration is\n===\ndone.\n",
                                  "| The migration is |\ndone. |\n", "The migration is\n| done. |\n",
                                  "<pre>\nThe migration is\ndone.\n</pre>\n", "<!--\nThe migration is\ndone.\n-->\n",
                                  "<!-- note\nThe migration is\ndone. -->\n", "The migration is\n<div>done.</div>\n",
                                  "The migration is\n"])
def test_breaks_that_are_no_soft_break_stay(text: str):
    found = _response('not (response contains "migration is done.")', text)
    assert found.startswith("pass"), (text, found)


def test_plain_text_and_hits_as_written_are_read_as_before():
    assert _response('not (response contains "migration is done")', WRAPPED, "outputs/r.txt").startswith("pass")
    assert _response('response contains "migration is\\ndone"', WRAPPED).startswith("pass")
    assert _response('response contains "migration"', WRAPPED).startswith("pass")


def test_words_without_a_space_never_join_the_lines(monkeypatch: pytest.MonkeyPatch):
    def refused(text: str):
        raise AssertionError("the lines were joined")

    monkeypatch.setattr(markdown_seen, "_shown_with_breaks", refused)
    for check in ('not (response contains "isdone")', 'not (response matches /is$/)',
                  'not (response contains "is\\nover")', 'not (response matches /[a-z]+[?]/)'):
        assert _response(check, WRAPPED).startswith("pass"), check


@pytest.mark.parametrize("check", ['trim(section(response, "Report")) != "The migration is done."',
                                   'trim(section(response, "Report")) == "The migration is done."',
                                   '"the migration is done." != trim(section(response, "Report")) ignoring case'])
def test_equal_only_over_a_soft_line_break_is_undecided(check: str):
    found = _response(check, "# Report\n\nThe migration is\n  done.\n")
    assert found.startswith("error: ") and "equal only as Markdown is shown" in found, found
    assert "(a line break, at response.md:3)" in found, found


def test_equal_as_written_or_different_joined_is_decided():
    text = "# Report\n\nThe migration is\ndone.\n"
    assert _response('trim(section(response, "Report")) == "The migration is\\ndone."', text).startswith("pass")
    assert _response('trim(section(response, "Report")) != "The migration is over."', text).startswith("pass")
    # both kinds of markup at once: "**done**" shows "done", the break a space
    text = "# Report\n\nThe migration is\n**done**.\n"
    assert _response('trim(section(response, "Report")) != "The migration is done."', text).startswith("error")


@pytest.mark.parametrize("check", ['not ("The migration is done." in parts(response))',
                                   '"The migration is done." in parts(response)'])
def test_an_item_equal_only_over_a_soft_line_break_is_undecided(check: str):
    found = _response(check, "The migration is\ndone.\n\n---\n\nAll good.\n")
    assert found.startswith("error: ") and "(a line break, at response.md:1)" in found, found
