"""Hostile runs of <pre>, <blockquote> and <hr> markup read by code(), quotes() and
parts() (engine/checks/html_blocks.py, html_pre.py) take a time linear in their
length: tags left open, quoted attributes never closed, hiding elements never closed,
and lines of many elements."""

from __future__ import annotations

import time

import pytest

from linear_time import grows_linearly
from referee.engine.checks import textparts
from referee.engine.values import EvalError, Prov, Val

UNITS = ["<a", "<!--<pre>", "--> <!-- ", "<a b='", "<pre ", "</", "<script>", "<!--", "</a>x", "&amp;", "<blockquote>", "</blockquote>",
         "<hr", "`<pre>` ", "<pre>x</pre>\n", "<hr>\n", "<blockquote\n"]


def _time(read, unit: str, n: int) -> float:
    arg = Val("<pre>" + unit * n + "\n" + unit * n, Prov("response", "r.md", "r.md", 1))
    began = time.process_time()
    try:
        read(arg)
    except EvalError:
        pass
    return time.process_time() - began


@pytest.mark.parametrize("read", [textparts.code, textparts.quotes, textparts.parts], ids=["code", "quotes", "parts"])
@pytest.mark.parametrize("unit", UNITS)
def test_html_blocks_take_a_time_linear_in_their_length(read, unit: str):
    grows_linearly(lambda n: _time(read, unit, n))
