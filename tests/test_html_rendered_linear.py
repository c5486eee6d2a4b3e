"""Hostile runs of what an HTML file's reading adds to the Markdown guess
(``html_shown``) take a time linear in their length: ten times the text takes about
ten times as long, never a hundred."""

from __future__ import annotations

import time

import pytest

from linear_time import grows_linearly
from referee.engine.checks.markdown_hidden import hidden_in_markdown
from referee.engine.checks.markdown_seen import shown_as_markdown, shown_joined

UNITS = ["<p hidden>", "<p hidden></p", "<p hidden><b>", "<a b=\"", "<a b='x\" ", "=\"", "<a b=\"x' ", "<a \"", "<a '", "<a b=\"<", "<a b=\">\" ", "<a title=\"hidden\" ", "<a \"x\"", "<title>", "<title><title>a</title>", "<canvas>", "<canvas></canvas>", "<dialog open>", "<iframe><", "`", "```\n", "\\-", "`a <b>", "<!--", "<!-- --!", "--!>", "<?", "<!", "</ ", "</", "<![CDATA[", "<!-- --!> ",
         "&#", "&#1", "&#x", "&amp", "&notin", "&nbspx", "&", "&a",
         # white space over lines, and form feeds
         "a\n", "\n \n", " \r\n", " \t\f", "\f", "a \r"]


def _time(unit: str, n: int) -> float:
    text = unit * n + "\n"
    began = time.process_time()
    shown_as_markdown(text, True)
    shown_joined(text, True)
    hidden_in_markdown(text, True)
    shown_as_markdown(text)  # tags and their attributes are read so in Markdown too
    hidden_in_markdown(text)
    return time.process_time() - began


@pytest.mark.parametrize("unit", UNITS)
def test_html_markup_takes_a_time_linear_in_its_length(unit: str):
    grows_linearly(lambda n: _time(unit, n))
