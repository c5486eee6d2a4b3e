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


# What a browser never shows of an element: a <script>'s and a <style>'s text (CommonMark
# 0.31, HTML blocks, start condition 1, or inline tags alike), a <template>'s content,
# and a <noscript>'s, which a browser running scripts, as browsers do, does not show.
# <details> shows what it holds (collapsed, one click away); <pre> and <textarea> too.
@pytest.mark.parametrize("text, element, line", [
    ("# Report\n\nDone.\n\n<script>\nalert('disclaimer')\n</script>\n", "script", 6),
    ("Done. <script>var disclaimer = 1;</script>\n", "script", 1),
    ("Done.\n\n<SCRIPT type=\"text/javascript\">\n\ndisclaimer\n", "script", 5),
    ("Done.\n<style>\n.disclaimer { display: none }\n</style>\n", "style", 3),
    ("Done.\n\n<template>\n\nA disclaimer.\n\n</template>\n", "template", 5),
    ("<template><template>x</template> disclaimer </template>\n", "template", 1),
    ("Done.\n\n<template>\n\n```\ndisclaimer\n```\n\n</template>\n", "template", 6),
    ("Done. <noscript>Enable scripts; disclaimer.</noscript>\n", "noscript", 1),
])
def test_a_hit_only_inside_an_element_never_shown_is_undecided(text: str, element: str, line: int):
    for check in ('response contains "disclaimer"', 'not (response contains "disclaimer")'):
        found = _response(check, text)
        assert found.startswith("error: ") and "only where a reader does not see it" in found, (text, found)
        assert f"(a <{element}> element at response.md:{line})" in found, (text, found)


@pytest.mark.parametrize("text", ["<details><summary>More</summary>\n\nA disclaimer.\n\n</details>\n",
                                  "<pre>\ndisclaimer\n</pre>\n", "<textarea>disclaimer</textarea>\n",
                                  "A disclaimer.\n<script>disclaimer</script>\n",
                                  "<script>x</script>\nA disclaimer.\n", "Write `<script>disclaimer</script>`.\n",
                                  "```html\n<style>.disclaimer {}</style>\n```\n", "<scripts>disclaimer</scripts>\n"])
def test_what_an_element_shows_is_a_hit(text: str):
    assert _response('response contains "disclaimer"', text).startswith("pass"), text


def test_an_element_never_shown_is_no_words_of_the_text_shown():
    found = _response('not (response contains "very")', "It is ve<script>x</script>ry good.\n")
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found


def test_fences_inside_a_script_block_are_no_fences():
    found = _response('not (response contains "very")', "<script>\n```\n</script>\nIt is ve&#114;y good.\n")
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found
