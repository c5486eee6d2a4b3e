"""A Markdown text holds, to its reader, only what its rendering shows: an HTML comment
(``<!-- disclaimer -->``) and an HTML tag with its attributes (``<span
title="disclaimer">``) show nothing. A text test whose hit lies only there is neither a
hit the reader grants nor a miss of the text as written: an ERROR naming the hidden
place and its line, never a pass of ``response contains "disclaimer"`` nor of its
negation. Code shows what is written; entities, escapes and emphasis hide nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from test_markdown_as_seen import _response, _verdict

HIDDEN = "Intro\n\nThe answer is 42.\n<!-- disclaimer -->\n"


@pytest.mark.parametrize("check", ['response contains "disclaimer"', 'not (response contains "disclaimer")',
                                   'response matches /disclaim\\w+/', 'not (response matches /disclaim\\w+/)'])
def test_a_hit_only_in_a_comment_is_undecided(check: str):
    found = _response(check, HIDDEN)
    assert found.startswith("error: ") and "only where a reader does not see it" in found, found
    assert "(an HTML comment at response.md:4)" in found, found


def test_a_hit_only_in_a_tags_attributes_is_undecided():
    found = _response('response contains "disclaimer"', 'See <span title="disclaimer">this</span>.\n')
    assert found.startswith("error: ") and "(an HTML tag at response.md:1)" in found, found


def test_a_hit_in_a_comment_over_lines_names_the_line_of_the_words():
    found = _response('response contains "disclaimer"', "Intro\n<!--\nnote\ndisclaimer\n-->\n")
    assert found.startswith("error: ") and "(an HTML comment at response.md:4)" in found, found


@pytest.mark.parametrize("check", ['response starts with "<!-- draft -->"', 'response ends with "<!-- end -->\\n"',
                                   'response fully matches /<!-- draft -->\\s*Done\\.\\s*<!-- end -->\\s*/'])
def test_an_anchored_hit_that_needs_a_comment_is_undecided(check: str):
    found = _response(check, "<!-- draft -->\nDone.\n<!-- end -->\n")
    assert found.startswith("error: ") and "only where a reader does not see it" in found, found


@pytest.mark.parametrize("text", ["disclaimer\n<!-- disclaimer -->\n", "<!-- x -->\nA disclaimer.\n",
                                  "```html\n<!-- disclaimer -->\n```\n", "Write `<!-- disclaimer -->`.\n",
                                  "A disclaimer &amp; more.\n", "A *disclaimer* here.\n"])
def test_a_hit_a_reader_sees_is_decided(text: str):
    assert _response('response contains "disclaimer"', text).startswith("pass"), text


def test_entities_escapes_and_emphasis_hide_nothing():
    assert _response('response contains "Q&amp;A"', "Q&amp;A <b>x</b>\n").startswith("pass")
    assert _response('response contains "\\\\-rf"', "rm \\-rf <b>x</b>\n").startswith("pass")
    assert _response('response contains "**Done**"', "**Done** <br>\n").startswith("pass")


def test_a_plain_text_file_is_read_as_written():
    found = _verdict('file "notes.txt" contains "disclaimer"', {"outputs/notes.txt": HIDDEN})
    assert found.startswith("pass"), found
    found = _verdict('file "notes.md" contains "disclaimer"', {"outputs/notes.md": HIDDEN})
    assert found.startswith("error: ") and "at notes.md:4" in found, found


def test_quantifiers_share_the_rule():
    found = _response('any lines(response) have . contains "disclaimer"', HIDDEN)
    assert found.startswith("error") and "response.md:4" in found, found


def test_the_placeholders_an_import_writes_for_paths_are_shown():
    # an import writes <home> and <cwd> where a reader saw a path: words, never a tag
    from referee.engine.checks.markdown_seen import PATH_PLACEHOLDERS
    from referee.engine.run.importers.claude_code import CWD
    from referee.engine.run.importers.homes import HOME

    assert set(PATH_PLACEHOLDERS) == {HOME, CWD}
    text = "Wrote <cwd>/hello.py and read <home>/.config.\n"
    assert _response('response contains "<cwd>/hello.py"', text).startswith("pass")
    assert _response('response ends with "<home>/.config.\\n"', text).startswith("pass")
    assert _response('not (response contains "<cwd>/hello.py and read <home>")', text).startswith("fail")


def test_the_harness_s_text_is_read_as_written(tmp_path: Path):
    """What the harness gave the agent (a prompt, a <system-reminder>) reaches the model as
    it is written, tags and comments included: it is never Markdown to render, so a hit in
    a tag or a comment there decides the check."""
    records = [{"type": "user", "message": {"role": "user", "content": "Fix it <!-- hidden -->"}, "uuid": "u1",
                "parentUuid": None, "sessionId": "S"},
               {"type": "user", "message": {"role": "user", "content": "<system-reminder>careful</system-reminder>"},
                "isMeta": True, "uuid": "u2", "parentUuid": "u1", "sessionId": "S"},
               {"type": "assistant", "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                                                 "content": [{"type": "text", "text": "Done."}]},
                "uuid": "a1", "parentUuid": "u2", "sessionId": "S"}]
    session = tmp_path / "session.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    rules = ('eval "x"\nexpect 1: any harness where .text contains "<system-reminder>"\n'
             'expect 2: no harness where .text contains "<!-- hidden -->"\n')
    outcomes = [e["outcome"] for e in referee.grade(rules, session, as_eval="x")[0].expectations]
    assert outcomes == ["pass", "fail"]


DONE = "# Report\n\nAll done. <!-- x -->\n"


@pytest.mark.parametrize("check", ['trim(section(response, "Report")) != "All done."',
                                   'trim(section(response, "Report")) == "All done."',
                                   'not (trim(section(response, "Report")) == "all done." ignoring case)',
                                   '"All done." in lines(response)', 'not ("All done." in lines(response))'])
def test_equal_only_without_a_hidden_place_is_undecided(check: str):
    found = _response(check, DONE)
    assert found.startswith("error: ") and "equal only as Markdown is shown" in found, found
    assert '(an HTML comment, "<!-- x -->", at response.md:3)' in found, found


@pytest.mark.parametrize("text", ["# Report\n\nAll done.\n<!-- x -->\n", "# Report\n\n<!-- x -->\nAll done.\n",
                                  "# Report\n\nAll <span>done.</span>\n", "# Report\n\nAll <!-- x --> done.\n"])
def test_the_blank_beside_a_hidden_place_shows_once(text: str):
    found = _response('trim(section(response, "Report")) != "All done."', text)
    assert found.startswith("error: ") and "equal only as Markdown is shown" in found, (text, found)


def test_equal_as_written_or_different_without_hidden_places_is_decided():
    assert _response('trim(section(response, "Report")) == "All done. <!-- x -->"', DONE).startswith("pass")
    assert _response('trim(section(response, "Report")) != "All done!"', DONE).startswith("pass")
    assert _response('trim(section(response, "Report")) == "All done!"', DONE).startswith("fail")
    assert _response('"Not done." in lines(response)', DONE).startswith("fail")
    found = _verdict('trim(file "notes.txt") != "All done."', {"outputs/notes.txt": "All done. <!-- x -->\n"})
    assert found.startswith("pass"), found
