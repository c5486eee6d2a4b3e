"""A Markdown (or HTML) text's markup is read once for both forms shown: the text as
shown and the text as shown with its soft line breaks and blanks joined
(``markdown_marks.read``). Each form equals, piece for piece, the one made by reading
the markup anew for it (``markdown_seen.shown_again``, the reference), over every
markup the reader knows, and a long text's markup is read once for the run."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.checks import markdown_marks
from referee.engine.checks.folding import kept_in
from referee.engine.checks.markdown_seen import shown_again, shown_as_markdown, shown_joined

# Pieces of every markup the reader knows, and the text around them.
ATOMS = (
    # words, blanks, line breaks and blocks
    "word", "two words", " ", "  ", "\t", "\f", "\n", "\n\n", "\n\n\n", "   \n", "  \n", "\\\n", "\r", "\r\n",
    "\u00a0", "\u202f", "\u200b", "\u00ad", "> ", "> > ", "- ", "* ", "1. ", "# ", "## ", "---\n", "===\n",
    "| a | b |\n", "    indented\n", "- > a\n  > b\n",
    # emphasis and escapes
    "*a*", "**b**", "_c_", "__d__", "~~e~~", "snake_case", " * ", "a*b", "\\*", "\\-", "\\[", "\\`", "\\",
    # links, images and their definitions
    "[a](b)", "[a](<b c>)", '[a](u "t")', "[a](u 't')", "[c][]", "[c][ref]", "[d]", "[ref]", "![img](src)",
    "[a [b]](u)", "[", "]", "](", "[x]: u\n", "[ref]: /u\n", "[a](b(c))", "[a](<", "![a [",
    # code spans and fences
    "`a`", "`` a ` b ``", "` a `", "`", "``", "```", "```\n", "~~~\n", "```py\n", "````\n", "\n```\n",
    # comments, declarations, processing instructions, CDATA
    "<!-- c -->", "<!-->", "<!--", "-->", "\n<!-- open\n", "<?php x ?>", "<?", "?>", "<!DOCTYPE html>", "<!a",
    "<![CDATA[ x ]]>", "<![CDATA[",
    # tags, hidden elements, what imports write for paths
    "<b>", "</b>", "<span title=\"x > y\">", "<br>", "<img hidden>", "<home>", "<cwd>", "<sup>", "<a href='u'>",
    "<script>x</script>", "<script>", "</script>", "<style>s</style>", "<template>", "</template>",
    "<noscript>n</noscript>", "<div hidden>", "</div>", "<div>\n", "<span style=\"display:none\">", "</span>",
    "<p hidden>", "<p>", "</p>", "<pre>\n", "</pre>", "<textarea>", "</textarea>", "<title>t</title>",
    "<details>", "\n<div>\n", "<template>\n```\ncode\n```\n</template>",
    # character references
    "&amp;", "&lt;", "&#114;", "&#x72;", "&nbsp;", "&bogus;", "&#0;", "&#x110000;", "&copy",
)


def _text(chosen: random.Random) -> str:
    return "".join(chosen.choice(ATOMS) for _ in range(chosen.randint(1, 40)))


def _assert_same(text: str, html: bool) -> None:
    assert shown_as_markdown(text, html) == shown_again(text, False, html), (text, html)
    assert shown_joined(text, html) == shown_again(text, True, html), (text, html)


@pytest.mark.parametrize("html", [False, True])
def test_a_seeded_corpus_of_every_markup_shows_as_the_reference(html: bool):
    chosen = random.Random(20261205)
    for _ in range(3000):
        _assert_same(_text(chosen), html)


@settings(max_examples=300)
@given(st.lists(st.one_of(st.sampled_from(ATOMS), st.text(alphabet="*_~`[]()<>!&#;\\ \n\t>-=|x", max_size=6)),
                max_size=30),
       st.booleans())
def test_any_text_shows_as_the_reference(pieces: list[str], html: bool):
    _assert_same("".join(pieces), html)


def _long(chosen: random.Random) -> str:
    """A text long enough for the run to keep its forms (``folding.kept_form``)."""
    text = ""
    while len(text) < 6000:
        text += _text(chosen)
    return text


@pytest.mark.parametrize("html", [False, True])
def test_a_long_text_kept_for_the_run_shows_as_the_reference(html: bool):
    chosen = random.Random(7)
    for _ in range(40):
        text = _long(chosen)
        with kept_in({}):
            joined_first = shown_joined(text, html)
            shown = shown_as_markdown(text, html)
        assert joined_first == shown_again(text, True, html), text
        assert shown == shown_again(text, False, html), text


@pytest.mark.parametrize("html", [False, True])
def test_the_markup_of_a_long_text_is_read_once_for_both_forms(monkeypatch: pytest.MonkeyPatch, html: bool):
    reads: list[tuple[int, int]] = []
    inline = markdown_marks._inline

    def counted(text: str, start: int, end: int, *args):
        reads.append((start, end))
        return inline(text, start, end, *args)

    monkeypatch.setattr(markdown_marks, "_inline", counted)
    text = "[a](b) [c][] [d] *e* `f` <!-- g -->\nnext line\n\n" * 200
    with kept_in({}):
        shown_as_markdown(text, html)
        once = len(reads)
        shown_joined(text, html)
        shown_as_markdown(text, html)
    assert once > 0 and len(reads) == once, (once, len(reads))
