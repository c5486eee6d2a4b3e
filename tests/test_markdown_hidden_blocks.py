"""What a browser never shows of a Markdown text, beyond a closed comment and a tag.

A line that starts (after at most three spaces, or a block quote's or a list item's
marker) with ``<!--`` opens an HTML block (CommonMark 0.31, HTML blocks, start
condition 2) that runs to the line holding ``-->``, or to the end of the text when no
line does: a renderer passes it through, and the browser hides the comment, all of it.
A ``<!--`` inside a paragraph that nothing closes is shown as text. A hit only in a
comment so left open is neither a hit nor a miss a reader grants: an ERROR."""

from __future__ import annotations

import pytest

from test_markdown_as_seen import _response

UNCLOSED = "# Report\n\nAll done.\n\n<!-- disclaimer: not legal advice\n\nmore hidden\n"


def test_a_comment_left_open_hides_the_rest_of_the_text():
    found = _response('response contains "disclaimer"', UNCLOSED)
    assert found.startswith("error: ") and "(an HTML comment at response.md:5)" in found, found
    found = _response('not (response contains "more hidden")', UNCLOSED)
    assert found.startswith("error: ") and "(an HTML comment at response.md:7)" in found, found


def test_what_stands_before_a_comment_left_open_is_shown():
    assert _response('response contains "All done."', UNCLOSED).startswith("pass")


@pytest.mark.parametrize("text", ["All done.\n<!-- disclaimer\n", "   <!-- disclaimer\n",
                                  "> <!-- disclaimer\n", "- item\n- <!-- disclaimer\n",
                                  "1. <!-- disclaimer\n", "<!--\n\n```\ndisclaimer\n```\n"])
def test_a_comment_opening_a_line_runs_to_the_end(text: str):
    found = _response('response contains "disclaimer"', text)
    assert found.startswith("error: ") and "only where a reader does not see it" in found, (text, found)


@pytest.mark.parametrize("text", ["Use <!-- to open a comment; a disclaimer.\n",
                                  "A <!-- b\n\nc disclaimer\n", "    <!-- disclaimer\n",
                                  "```\n<!-- disclaimer\n```\n", "Write `<!--` then a disclaimer.\n"])
def test_a_comment_left_open_inside_a_paragraph_or_code_is_text(text: str):
    assert _response('response contains "disclaimer"', text).startswith("pass"), text


def test_fences_inside_an_html_comment_block_are_no_fences():
    # the comment runs from its line to the line holding -->: the ``` there opens no code
    text = "Intro\n<!--\n```\n-->\nIt is ve&#114;y good.\n"
    found = _response('not (response contains "very")', text)
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found
    assert _response('response contains "It is"', text).startswith("pass")


def test_words_after_a_comment_closed_on_its_own_line_are_shown():
    text = "<!-- note\nstill note --> shown words\n"
    assert _response('response contains "shown words"', text).startswith("pass")
    assert _response('response contains "still note"', text).startswith("error: ")
